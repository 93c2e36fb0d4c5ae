import CQPDF

/// qpdf's message for the last error on `handle`, when `status` has the error bit; nil when it
/// succeeded. The one place both qpdf wrappers read errors from.
func qpdfFailure(_ status: QPDF_ERROR_CODE, _ handle: qpdf_data?) -> String? {
    guard status & QPDF_ERRORS != 0 else { return nil }
    guard qpdf_has_error(handle) != 0, let error = qpdf_get_error(handle), let text = qpdf_get_error_full_text(handle, error) else {
        return "qpdf gave no reason"
    }
    return String(cString: text)
}
