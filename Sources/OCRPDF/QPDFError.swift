import CQPDF
import Glibc

/// qpdf's message for the last error on `handle`, when `status` has the error bit; nil when it
/// succeeded. The one place both qpdf wrappers read errors from.
func qpdfFailure(_ status: QPDF_ERROR_CODE, _ handle: qpdf_data?) -> String? {
    guard status & QPDF_ERRORS != 0 else { return nil }
    guard qpdf_has_error(handle) != 0, let error = qpdf_get_error(handle), let text = qpdf_get_error_full_text(handle, error) else {
        return "qpdf gave no reason"
    }
    return String(cString: text)
}

/// The content streams of `page` (in `handle`) decoded and joined, or qpdf's reason why not.
/// The one place both qpdf wrappers read page content from.
func qpdfPageContent(_ handle: qpdf_data?, _ page: qpdf_oh) -> Result<[UInt8], QPDFContentError> {
    var buffer: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = qpdf_oh_get_page_content_data(handle, page, &buffer, &length)
    defer { free(buffer) }
    if let reason = qpdfFailure(status, handle) { return .failure(QPDFContentError(reason: reason)) }
    guard let buffer else { return .success([]) }
    return .success([UInt8](UnsafeBufferPointer(start: buffer, count: length)))
}

/// Why a page's content could not be read.
struct QPDFContentError: Error { let reason: String }
