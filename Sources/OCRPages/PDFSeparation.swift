import Foundation
import OCRWire

extension PageSplitter {
    /// One single-page PDF per page of `pdf` (which has `pages` pages, from `pdfinfo`), cut by
    /// poppler's `pdfseparate` in one run into a temporary directory: pages keep their content
    /// streams, images (still compressed), size and /Rotate; nothing is rasterised. A one-page
    /// PDF is returned as it is. When `pdfseparate` fails on a PDF that `pdfinfo` accepted (or is
    /// not installed), every page carries the whole PDF instead and workers rasterise page
    /// `filePage` of it, so such a file still works, only heavier. `DEADLINE_EXCEEDED` when the
    /// run takes longer than the PDF timeout.
    func separatePDF(_ pdf: [UInt8], pages: Int) throws(OCRError) -> [[UInt8]] {
        guard pages > 1 else { return [pdf] }
        let whole = Array(repeating: pdf, count: pages)  // Shared storage: copy-on-write.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.path + "/in.pdf"
        guard FileManager.default.createFile(atPath: input, contents: Data(pdf)) else {
            throw OCRError(.internal, "cannot write a temporary PDF")
        }
        let outcome: Subprocess.Outcome
        do throws(OCRError) {
            outcome = try Subprocess.run(pdfseparate, [input, dir.path + "/page-%d.pdf"], timeout: self.pdf.timeout, workDirectory: dir.path)
        } catch where error.code == .failedPrecondition {
            return whole
        }
        guard outcome.status == 0 else { return whole }
        var result: [[UInt8]] = []
        result.reserveCapacity(pages)
        for page in 1...pages {
            guard let data = FileManager.default.contents(atPath: dir.path + "/page-\(page).pdf"), !data.isEmpty else { return whole }
            result.append([UInt8](data))
        }
        return result
    }
}
