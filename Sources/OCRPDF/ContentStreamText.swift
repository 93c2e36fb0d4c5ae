/// Removes text from a page's content stream (PDF 32000-1 sections 7.8.2 and 9.4): the text-showing
/// operators (`Tj`, `TJ`, `'`, `"`) with their operands. Everything else stays byte for byte,
/// text objects and text state operators included, so the graphics state after each object is
/// what it was (a text render mode set inside a text object persists after it).
///
/// `--redo-ocr` uses it twice: on the page kept in the output, to drop an earlier OCR layer
/// (text shown in render mode 3, invisible, as Tesseract's, OCRmyPDF's and our renderer write
/// it) and keep visible text; and on the copy that is rasterised for recognition, to drop all
/// text, so visible text is not read a second time into our layer. Text inside form XObjects is
/// not reached (as OCRmyPDF's strip_invisible_text, which reads the page's own stream only).
package enum ContentStreamText {
    /// Which text-showing operators go.
    package enum Removal: Sendable {
        /// Those shown in render mode 3 (neither fill nor stroke: invisible).
        case invisible
        /// All of them.
        case all
    }

    /// `content` without the text `removal` names; nil when there was none (keep the stream
    /// as it is).
    package static func removing(_ removal: Removal, from content: [UInt8]) -> [UInt8]? {
        var tokenizer = ContentTokenizer(content)
        var dropped: [Range<Int>] = []
        var operandsStart = 0
        var renderMode = 0
        var savedModes: [Int] = []
        var lastNumber: Int?
        while let token = tokenizer.next() {
            switch token.kind {
            case .number(let value):
                lastNumber = value
                continue
            case .operand:
                lastNumber = nil
                continue
            case .operator(let name):
                switch name {
                case "q": savedModes.append(renderMode)
                case "Q": renderMode = savedModes.popLast() ?? 0
                case "Tr": renderMode = lastNumber ?? renderMode
                case "Tj", "TJ", "'", "\"":
                    if removal == .all || renderMode == 3 { dropped.append(operandsStart..<token.range.upperBound) }
                default: break
                }
                lastNumber = nil
                operandsStart = token.range.upperBound
            }
        }
        guard !dropped.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var at = 0
        for range in dropped {
            out += content[at..<range.lowerBound]
            out.append(0x0A)  // Keeps the tokens on either side apart.
            at = range.upperBound
        }
        out += content[at...]
        return out
    }
}

/// The tokens of a content stream: operands (numbers apart, for `Tr`) and operators. Strings,
/// hex strings, names, arrays and dictionaries are operands; an inline image (`BI` ... `ID`
/// data `EI`) is one operator token, so its binary data is never read as tokens.
struct ContentTokenizer {
    enum Kind: Equatable {
        case number(Int?)
        case operand
        case `operator`(String)
    }

    struct Token {
        var kind: Kind
        var range: Range<Int>
    }

    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private static func isWhitespace(_ b: UInt8) -> Bool { b == 0 || b == 9 || b == 10 || b == 12 || b == 13 || b == 32 }
    private static func isDelimiter(_ b: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(b) }

    mutating func next() -> Token? {
        while at < bytes.count {
            let b = bytes[at]
            if Self.isWhitespace(b) { at += 1; continue }
            if b == UInt8(ascii: "%") {  // A comment, to the end of the line.
                while at < bytes.count, bytes[at] != 10, bytes[at] != 13 { at += 1 }
                continue
            }
            break
        }
        guard at < bytes.count else { return nil }
        let start = at
        let b = bytes[at]
        switch b {
        case UInt8(ascii: "("):
            skipString()
            return Token(kind: .operand, range: start..<at)
        case UInt8(ascii: "<"):
            if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "<") { at += 2 } else { skip(until: UInt8(ascii: ">")) }
            return Token(kind: .operand, range: start..<at)
        case UInt8(ascii: ">"):
            at += at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: ">") ? 2 : 1
            return Token(kind: .operand, range: start..<at)
        case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ")"):
            at += 1
            return Token(kind: .operand, range: start..<at)
        case UInt8(ascii: "/"):
            at += 1
            skipRegular()
            return Token(kind: .operand, range: start..<at)
        default:
            skipRegular()
            if at == start { at += 1 }  // A lone delimiter-like byte: step over it.
            let word = String(decoding: bytes[start..<at], as: UTF8.self)
            if let first = word.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                return Token(kind: .number(Int(word)), range: start..<at)
            }
            if word == "true" || word == "false" || word == "null" { return Token(kind: .operand, range: start..<at) }
            if word == "BI" { skipInlineImage() }
            return Token(kind: .operator(word), range: start..<at)
        }
    }

    private mutating func skipRegular() {
        while at < bytes.count, !Self.isWhitespace(bytes[at]), !Self.isDelimiter(bytes[at]) { at += 1 }
    }

    private mutating func skip(until end: UInt8) {
        while at < bytes.count, bytes[at] != end { at += 1 }
        if at < bytes.count { at += 1 }
    }

    /// A literal string: balanced parentheses, backslash escapes.
    private mutating func skipString() {
        var depth = 0
        while at < bytes.count {
            let c = bytes[at]
            at += 1
            if c == UInt8(ascii: "\\") { at += 1; continue }
            if c == UInt8(ascii: "(") { depth += 1 }
            if c == UInt8(ascii: ")") { depth -= 1; if depth == 0 { return } }
        }
    }

    /// From after `BI` to after its `EI`: the dictionary up to `ID`, one whitespace byte, then
    /// data up to an `EI` with whitespace (or the end) on both sides.
    private mutating func skipInlineImage() {
        while let token = next() {
            if token.kind == .operator("ID") { break }
        }
        at += 1
        while at + 1 < bytes.count {
            if bytes[at] == UInt8(ascii: "E"), bytes[at + 1] == UInt8(ascii: "I"), at > 0, Self.isWhitespace(bytes[at - 1]),
               at + 2 >= bytes.count || Self.isWhitespace(bytes[at + 2]) {
                at += 2
                return
            }
            at += 1
        }
        at = bytes.count
    }
}
