import OCRWire

/// The file and page an error concerns; stamped onto every error thrown while working on a page.
package struct PageContext: Sendable, Equatable {
    /// Input file name as submitted.
    package var file: String
    /// Zero-based page index within the job (or within the file when there is no job).
    package var pageIndex: Int
    /// 1-based page number inside the file (TIFF directory or PDF page).
    package var filePage: Int

    package init(file: String, pageIndex: Int, filePage: Int) {
        self.file = file
        self.pageIndex = pageIndex
        self.filePage = filePage
    }

    /// Runs `body`, adding this file and page to any ``OCRError`` it throws that lacks them.
    package func stamp<T>(_ body: () throws(OCRError) -> T) throws(OCRError) -> T {
        do {
            return try body()
        } catch {
            var e = error
            if e.file == nil { e.file = file }
            if e.pageIndex == nil { e.pageIndex = pageIndex }
            throw e
        }
    }
}
