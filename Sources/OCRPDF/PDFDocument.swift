import CQPDF
import OCRWire

// OCRPDF is the one module that touches qpdf's C API. `PDFDocument` owns one qpdf_data (cleaned
// up in deinit) and the copy of the PDF's bytes qpdf reads from; no pointer leaves this file.

/// A PDF opened with qpdf, in this process: its page count from the real page tree (not the
/// `/Count` a page tree may lie about) and single pages cut out with only what they use.
///
/// qpdf parses lazily and copies stream data through without decoding it (`qpdf_dl_none`), so
/// neither counting nor cutting inflates a compressed stream: a decompression bomb stays a
/// compressed stream until a worker's rasteriser (a subprocess with limits) meets it.
package final class PDFDocument {
    private var qpdf: qpdf_data?
    /// qpdf reads from this buffer without copying it: it must outlive the handle.
    private let buffer: UnsafeMutableRawBufferPointer
    /// The file's name, for messages.
    private let file: String

    /// Opens `bytes`. `INVALID_ARGUMENT` naming the file when qpdf cannot read it (damage beyond
    /// what its recovery repairs, or a password).
    package init(_ bytes: [UInt8], file: String) throws(OCRError) {
        self.file = file
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
        qpdf = qpdf_init()
        qpdf_silence_errors(qpdf)
        qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
        let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        let status = file.withCString { qpdf_read_memory(qpdf, $0, base, UInt64(bytes.count), nil) }
        try check(status, "reading the PDF")
    }

    deinit {
        qpdf_cleanup(&qpdf)
        buffer.deallocate()
    }

    /// Pages in the page tree, found by walking it (qpdf's `getAllPages`).
    package func pageCount() throws(OCRError) -> Int {
        let n = qpdf_get_num_pages(qpdf)
        try check(n < 0 ? QPDF_ERRORS : QPDF_SUCCESS, "walking the page tree")
        guard n > 0 else { throw OCRError(.invalidArgument, "\(file): the PDF has no pages", file: file) }
        return Int(n)
    }

    /// Page `filePage` (1-based) as a PDF of its own: qpdf copies the page and the objects it
    /// references (content streams, resources inherited from the page tree, fonts, images) into
    /// an empty PDF, and nothing of the other pages.
    package func page(_ filePage: Int) throws(OCRError) -> [UInt8] {
        try onePage(filePage) { _, _ in true }!
    }

    /// Page `filePage` as a PDF of its own without the text its content stream shows (all of it:
    /// `ContentStreamText`), for rasterising what is left; nil when it shows none.
    package func pageWithoutText(_ filePage: Int) throws(OCRError) -> [UInt8]? {
        try onePage(filePage) { out, page throws(OCRError) -> Bool in
            let content: [UInt8]
            switch qpdfPageContent(out, page) {
            case .success(let bytes): content = bytes
            case .failure(let error): throw OCRError(.invalidArgument, "\(file) page \(filePage): reading its content failed: \(error.reason)", file: file)
            }
            guard let kept = ContentStreamText.removing(.all, from: content) else { return false }
            let stream = qpdf_oh_new_stream(out)
            kept.withUnsafeBufferPointer { data in
                qpdf_oh_replace_stream_data(out, stream, data.baseAddress, data.count, qpdf_oh_new_null(out), qpdf_oh_new_null(out))
            }
            qpdf_oh_replace_key(out, page, "/Contents", stream)
            return true
        }
    }

    /// Page `filePage` copied into an empty PDF, changed by `edit` (given the new PDF and its
    /// page), and written; nil when `edit` says there was nothing to change.
    private func onePage(_ filePage: Int, edit: (qpdf_data?, qpdf_oh) throws(OCRError) -> Bool) throws(OCRError) -> [UInt8]? {
        let count = try pageCount()
        guard (1...count).contains(filePage) else {
            throw OCRError(.invalidArgument, "\(file) has \(count) pages, not \(filePage)", file: file)
        }
        var out = qpdf_init()
        defer { qpdf_cleanup(&out) }
        qpdf_silence_errors(out)
        qpdf_set_suppress_warnings(out, QPDF_TRUE)
        try check(qpdf_empty_pdf(out), "creating the page's PDF", filePage, handle: out)
        let source = qpdf_get_page_n(qpdf, filePage - 1)
        try check(qpdf_add_page(out, qpdf, source, QPDF_FALSE), "copying page \(filePage)", filePage, handle: out)
        guard try edit(out, qpdf_get_page_n(out, 0)) else { return nil }
        try check(qpdf_init_write_memory(out), "writing page \(filePage)", filePage, handle: out)
        qpdf_set_decode_level(out, qpdf_dl_none)
        qpdf_set_compress_streams(out, QPDF_FALSE)  // Streams pass through as they were stored.
        qpdf_set_object_stream_mode(out, qpdf_o_preserve)
        qpdf_set_deterministic_ID(out, QPDF_TRUE)  // The same page cuts to the same bytes.
        try check(qpdf_write(out), "writing page \(filePage)", filePage, handle: out)
        let length = qpdf_get_buffer_length(out)
        guard let bytes = qpdf_get_buffer(out), length > 0 else {
            throw OCRError(.internal, "\(file) page \(filePage): qpdf wrote no bytes", file: file)
        }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: length))
    }

    /// Throws qpdf's error message, naming the file (and page), when `status` has the error bit.
    private func check(_ status: QPDF_ERROR_CODE, _ what: String, _ page: Int? = nil,
                       handle: qpdf_data? = nil) throws(OCRError) {
        guard let reason = qpdfFailure(status, handle ?? qpdf) else { return }
        let whereTo = page.map { "\(file) page \($0)" } ?? file
        if reason.contains("password") {
            throw OCRError(.invalidArgument, "\(whereTo): the PDF is encrypted (password required)", file: file)
        }
        throw OCRError(.invalidArgument, "\(whereTo): \(what) failed: \(reason)", file: file)
    }
}
