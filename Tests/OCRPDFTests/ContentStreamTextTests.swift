import OCRPDF
import Testing

/// Text removal from content streams (--redo-ocr), as byte tables: only text-showing operators
/// and their operands go; strings, arrays and inline images are read as tokens, never as
/// operators; the render mode follows q/Q.
@Suite struct ContentStreamTextTests {
    static func removing(_ removal: ContentStreamText.Removal, _ text: String) -> String? {
        ContentStreamText.removing(removal, from: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func words(_ text: String?) -> [Substring] { (text ?? "").split(whereSeparator: \.isWhitespace) }

    @Test func invisibleTextGoesVisibleTextStays() {
        let content = "BT /F1 12 Tf 10 10 Td (Visible) Tj ET BT 3 Tr /F1 9 Tf 10 50 Td (hidden words) Tj [(a) -20 (b)] TJ ET q 10 0 0 10 0 0 cm /Im0 Do Q"
        let kept = Self.removing(.invisible, content)
        #expect(Self.words(kept) == ["BT", "/F1", "12", "Tf", "10", "10", "Td", "(Visible)", "Tj", "ET",
                                     "BT", "3", "Tr", "/F1", "9", "Tf", "10", "50", "Td", "ET",
                                     "q", "10", "0", "0", "10", "0", "0", "cm", "/Im0", "Do", "Q"], "\(kept ?? "nil")")
        #expect(Self.words(Self.removing(.all, content)).contains("(Visible)") == false)
    }

    @Test func nothingToRemoveIsNil() {
        #expect(Self.removing(.invisible, "BT (shown) Tj ET q /Im0 Do Q") == nil)
        #expect(Self.removing(.all, "q 1 0 0 1 0 0 cm /Im0 Do Q") == nil)
        #expect(Self.removing(.invisible, "") == nil)
    }

    @Test func stringsArraysAndInlineImagesAreNotOperators() {
        // "Tj" inside a string with nested and escaped parentheses, in a hex string, a name and
        // an inline image's binary data must not be taken for the operator.
        let content = "BT 3 Tr (a (Tj) \\) b) Tj <54 6A> Tj /Tj 1 Tf ET BI /W 2 /H 1 /BPC 8 /CS /G ID \u{1}Tj\u{2} EI BT (x) Tj ET"
        let kept = Self.removing(.invisible, content)
        #expect(Self.words(kept) == ["BT", "3", "Tr", "/Tj", "1", "Tf", "ET", "BI", "/W", "2", "/H", "1", "/BPC", "8", "/CS", "/G", "ID",
                                     "\u{1}Tj\u{2}", "EI", "BT", "ET"], "\(kept ?? "nil")")
    }

    @Test func renderModeFollowsSaveAndRestore() {
        // Mode 3 set inside q ... Q ends with Q; mode 3 set outside a text object persists.
        let content = "q 3 Tr BT (gone) Tj ET Q BT (stays) Tj ET 3 Tr BT (gone too) ' ET BT 0 Tr 1 2 (back) \" ET"
        let kept = Self.removing(.invisible, content)
        let shown = Self.words(kept).filter { $0.hasPrefix("(") }
        #expect(shown == ["(stays)", "(back)"], "\(kept ?? "nil")")
    }

    @Test func hostileInputEndsWithoutCrashing() {
        // None of them completes a text-showing operator: nothing to remove, and no crash or hang.
        for content in ["(unterminated", "<unterminated", "BI /W 1 ID no end", "BT 3 Tr [(a", "%comment only", "((((((((", "\\"] {
            #expect(ContentStreamText.removing(.all, from: Array(content.utf8)) == nil, "\(content)")
        }
    }
}
