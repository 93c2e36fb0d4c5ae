import Foundation
import Testing

/// Every public declaration in `Sources/` has a `///` comment (the public API is OCRClient, the
/// wire types of OCRWire, and the CURVE types OCRClient re-exports; everything else is `package`).
@Suite struct PublicDocsTests {
    @Test func everyPublicDeclarationHasADocComment() throws {
        let sources = ReadmeLayersTests.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        try #require(files.count > 50, "found \(files.count) Swift files under Sources")
        var missing: [String] = []
        var declarations = 0
        let declaration = try NSRegularExpression(pattern: #"^(@\w+(\([^)]*\))?\s+)*public\s"#)
        for file in files {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            for (i, line) in lines.enumerated() {
                // The cheap test first: a regular expression on every line held a pool thread for seconds.
                guard line.contains("public ") else { continue }
                let text = line.trimmingCharacters(in: .whitespaces)
                guard declaration.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil else { continue }
                declarations += 1
                var j = i - 1
                while j >= 0, lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("@") { j -= 1 }
                if j < 0 || !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    missing.append("\(file):\(i + 1): \(text.prefix(80))")
                }
            }
        }
        #expect(declarations > 500, "found \(declarations) public declarations")
        #expect(missing.isEmpty, "public declarations without ///:\n\(missing.prefix(40).joined(separator: "\n"))")
    }
}
