import Foundation
import OCRWire

/// PDF pages through poppler (`poppler-utils`): `pdfinfo` for the page count and sizes,
/// `pdftoppm` for one page at a time. Both run in a subprocess with a timeout, so a malicious or
/// broken PDF can hang or crash only the helper, never the engine.
public struct PDFRasterizer: Sendable {
    /// Path or name of `pdfinfo`.
    public var pdfinfo: String
    /// Path or name of `pdftoppm`.
    public var pdftoppm: String
    /// Limit for each helper run.
    public var timeout: Duration

    public init(pdfinfo: String = "pdfinfo", pdftoppm: String = "pdftoppm", timeout: Duration = .seconds(60)) {
        self.pdfinfo = pdfinfo
        self.pdftoppm = pdftoppm
        self.timeout = timeout
    }

    /// Number of pages. `INVALID_ARGUMENT` for broken or password-protected PDFs.
    public func pageCount(_ pdf: [UInt8]) throws(OCRError) -> Int {
        let info = try self.info(pdf, page: nil)
        guard let n = info.pages, n > 0 else { throw OCRError(.invalidArgument, "PDF has no pages") }
        return n
    }

    /// Page size in points (1/72 inch) of the 1-based `page`, with its /Rotate applied.
    func pageSize(_ pdf: [UInt8], page: Int) throws(OCRError) -> (width: Double, height: Double) {
        let info = try self.info(pdf, page: page)
        guard let size = info.size else { throw OCRError(.invalidArgument, "PDF page \(page) does not exist") }
        return size
    }

    /// Rasterises the 1-based `page` at `dpi` to 8-bit gray PNG bytes (or colour when `color`).
    /// Refuses before rasterising when the page would exceed `maxPixels`.
    func rasterize(_ pdf: [UInt8], page: Int, dpi: Int, maxPixels: UInt64) throws(OCRError) -> [UInt8] {
        let size = try pageSize(pdf, page: page)
        let w = size.width / 72 * Double(dpi), h = size.height / 72 * Double(dpi)
        if w * h > Double(maxPixels) {
            throw OCRError(.resourceExhausted, "PDF page \(page) at \(dpi) dpi would be \(Int(w))x\(Int(h)) pixels, over the limit of \(maxPixels)")
        }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.path + "/in.pdf"
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            throw OCRError(.internal, "cannot write a temporary PDF")
        }
        let outcome = try Subprocess.run(pdftoppm, ["-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-gray", "-png", "-singlefile", input, dir.path + "/page"],
                                         timeout: timeout, workDirectory: dir.path)
        guard outcome.status == 0, let png = FileManager.default.contents(atPath: dir.path + "/page.png") else {
            throw OCRError(.invalidArgument, "pdftoppm could not render page \(page): \(Self.firstLine(outcome.stderr))")
        }
        return [UInt8](png)
    }

    private struct Info { var pages: Int?; var size: (width: Double, height: Double)? }

    private func info(_ pdf: [UInt8], page: Int?) throws(OCRError) -> Info {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.path + "/in.pdf"
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            throw OCRError(.internal, "cannot write a temporary PDF")
        }
        var args = [input]
        if let page { args = ["-f", "\(page)", "-l", "\(page)", input] }
        let outcome = try Subprocess.run(pdfinfo, args, timeout: timeout, workDirectory: dir.path)
        guard outcome.status == 0 else {
            let why = outcome.stderr.contains("password") ? "PDF is encrypted (password required)" : "PDF is broken"
            throw OCRError(.invalidArgument, "\(why): \(Self.firstLine(outcome.stderr))")
        }
        var info = Info()
        var rotation = 0
        for line in String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Pages" { info.pages = Int(parts[1]) }
            // With -f/-l: "Page    3 size: 612 x 792 pts (letter)" and "Page    3 rot:  90".
            if let page, Self.pageField(parts[0], "size") == page {
                let numbers = parts[1].split(separator: " ").compactMap { Double($0) }
                if numbers.count >= 2 { info.size = (numbers[0], numbers[1]) }
            }
            if let page, Self.pageField(parts[0], "rot") == page { rotation = Int(parts[1]) ?? 0 }
        }
        if rotation % 180 != 0, let s = info.size { info.size = (s.height, s.width) }
        return info
    }

    /// The page number in a pdfinfo key like "Page    3 size", when the key ends in `field`.
    private static func pageField(_ key: String, _ field: String) -> Int? {
        let words = key.split(separator: " ")
        guard words.count == 3, words[0] == "Page", words[2] == field else { return nil }
        return Int(words[1])
    }

    private static func firstLine(_ s: String) -> String {
        s.split(separator: "\n").first.map(String.init) ?? "no message"
    }
}
