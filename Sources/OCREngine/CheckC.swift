import OCRWire

/// The one place where C return conventions become Swift errors.
///
/// - Tesseract returns `0` for success and `-1` (or another non-zero value) for failure.
/// - Leptonica's `l_ok` functions return `0` for success and `1` for failure.
/// - Leptonica and Tesseract constructors return `NULL` on failure.
///
/// Each failure becomes an ``OCRError`` whose code says what the caller should do: bad input is
/// `INVALID_ARGUMENT`, an engine that cannot start is `FAILED_PRECONDITION`, anything else
/// `INTERNAL`. The file and page are added by ``PageContext``.
enum CheckC {
    /// Tesseract's and Leptonica's integer convention: `0` is success.
    static func zero(_ rc: Int32, _ what: @autoclosure () -> String, code: StatusCode = .internal) throws(OCRError) {
        if rc != 0 { throw OCRError(code, "\(what()) failed (C return code \(rc))") }
    }

    /// A C constructor or reader: `NULL` is failure.
    static func nonNull<T>(_ pointer: T?, _ what: @autoclosure () -> String, code: StatusCode = .internal) throws(OCRError) -> T {
        guard let pointer else { throw OCRError(code, "\(what()) failed") }
        return pointer
    }

    /// Tesseract's `BOOL` (an `int`): non-zero is success.
    static func true_(_ ok: Int32, _ what: @autoclosure () -> String, code: StatusCode = .internal) throws(OCRError) {
        if ok == 0 { throw OCRError(code, "\(what()) failed") }
    }
}

/// The file and page an error concerns; stamped onto every error thrown while working on a page.
public struct PageContext: Sendable, Equatable {
    /// Input file name as submitted.
    public var file: String
    /// Zero-based page index within the job (or within the file when there is no job).
    public var pageIndex: Int
    /// 1-based page number inside the file (TIFF directory or PDF page).
    public var filePage: Int

    public init(file: String, pageIndex: Int, filePage: Int) {
        self.file = file
        self.pageIndex = pageIndex
        self.filePage = filePage
    }

    /// Runs `body`, adding this file and page to any ``OCRError`` it throws that lacks them.
    func stamp<T>(_ body: () throws(OCRError) -> T) throws(OCRError) -> T {
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
