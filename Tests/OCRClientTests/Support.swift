import Foundation
import OCRTestSupport
import OCRWire
@testable import OCRClient


enum Paths {
    /// The repository root (this file is Tests/OCRClientTests/Support.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The ALTO and PAGE schemas with their offline catalog.
    static let schemas = Binaries.schemas
    static let phototest = Binaries.realTestdata.appendingPathComponent("unlv-isri/phototest.tif")

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ocrclient-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

enum XMLCheck {
    /// Validates `xml` against the ALTO 4.4 schema offline; returns xmllint's result.
    static func validateALTO(_ xml: String) throws -> ProcessOutput {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.alto.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return try runProcess(["xmllint", "--nonet", "--noout", "--schema", Paths.schemas.appendingPathComponent("alto-4-4.xsd").path, file.path],
                             environment: ["XML_CATALOG_FILES": Paths.schemas.appendingPathComponent("catalog.xml").path])
    }

    /// Validates `xml` against the PAGE 2019-07-15 schema offline; returns xmllint's result.
    static func validatePAGE(_ xml: String) throws -> ProcessOutput {
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return try runProcess(["xmllint", "--nonet", "--noout", "--schema", Paths.schemas.appendingPathComponent("page-2019-07-15.xsd").path, file.path])
    }

    /// Checks that `xml` is well-formed XML (no network, no DTD loading).
    static func wellFormed(_ xml: String) throws -> ProcessOutput {
        try runProcess(["xmllint", "--nonet", "--noout", "-"], stdin: xml)
    }

    /// All matches of `pattern` (capture groups) in `text`.
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (0..<match.numberOfRanges).map { i in
                let r = match.range(at: i)
                return r.location == NSNotFound ? "" : ns.substring(with: r)
            }
        }
    }
}

/// `WirePages.box`, under the short name these tests use.
func box(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> BoundingBox { WirePages.box(x, y, width, height) }
