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
package enum CheckC {
    /// Tesseract's and Leptonica's integer convention: `0` is success.
    package static func zero(_ rc: Int32, _ what: @autoclosure () -> String, code: StatusCode = .internal) throws(OCRError) {
        if rc != 0 { throw OCRError(code, "\(what()) failed (C return code \(rc))") }
    }

    /// A C constructor or reader: `NULL` is failure.
    package static func nonNull<T>(_ pointer: T?, _ what: @autoclosure () -> String, code: StatusCode = .internal) throws(OCRError) -> T {
        guard let pointer else { throw OCRError(code, "\(what()) failed") }
        return pointer
    }

    /// Tesseract's `BOOL` (an `int`): non-zero is success.
    package static func true_(_ ok: Int32, _ what: @autoclosure () -> String, code: StatusCode = .internal) throws(OCRError) {
        if ok == 0 { throw OCRError(code, "\(what()) failed") }
    }
}
