import CQPDF
import Foundation
import OCRWire

// Builds one searchable PDF with qpdf's object API: pages of images (the scan as it was, with
// an invisible text layer on top) and pages kept from input PDFs (their content untouched, the
// text layer under it: OCRmyPDF's "sandwich"). Owns its qpdf_data and those of the
// input pages, which must live until the output is written (qpdf copies foreign streams then).

/// A searchable PDF being written, page by page.
package final class SearchablePDFWriter {
    private var qpdf: qpdf_data?
    /// The input PDFs pages were taken from, with the bytes each reads without copying.
    private var sources: [(handle: qpdf_data?, buffer: UnsafeMutableRawBufferPointer)] = []
    /// Which of `sources` holds each file read so far.
    private var sourceOfFile: [String: Int] = [:]
    /// The glyphless Type0 font every text layer uses (an indirect object).
    private var font: qpdf_oh = 0
    private var pages = 0
    /// The font's ToUnicode map, written last: it lists only the code blocks the text used.
    private var toUnicode: qpdf_oh = 0
    /// High bytes of the UTF-16 code units the text layers use (one ToUnicode range each).
    private var codeBlocks: Set<UInt8> = []
    /// Pages added so far.
    package var pageCount: Int { pages }

    /// - Parameter fontProgram: a TrueType program to embed for the glyphless font (Tesseract's
    ///   `pdf.ttf`); nil writes the font without one (the text is invisible either way).
    package init(fontProgram: [UInt8]?) throws(OCRError) {
        qpdf = qpdf_init()
        qpdf_silence_errors(qpdf)
        qpdf_set_suppress_warnings(qpdf, QPDF_TRUE)
        try check(qpdf_empty_pdf(qpdf), "creating the PDF")
        font = try makeFont(fontProgram)
    }

    deinit {
        for var source in sources {
            qpdf_cleanup(&source.handle)
            source.buffer.deallocate()
        }
        qpdf_cleanup(&qpdf)
    }

    /// A page showing `image` at its resolution's size, with `lines` of words (boxes in the
    /// image's pixels) as its text layer, turned by `rotate` degrees clockwise when shown (the
    /// page's /Rotate, as img2pdf writes a JPEG's EXIF orientation: image and text layer stay in
    /// the stored image's frame, and viewers show both upright).
    package func addImagePage(_ image: PdfImage, lines: [[PDFTextWord]], rotate: Int = 0) throws(OCRError) {
        guard image.width > 0, image.height > 0, !image.data.isEmpty else {
            throw OCRError(.invalidArgument, "the page image is empty")
        }
        let dpiX = image.dpiX.isFinite && image.dpiX > 0 ? Double(image.dpiX) : 300
        let dpiY = image.dpiY.isFinite && image.dpiY > 0 ? Double(image.dpiY) : dpiX
        let width = Double(image.width) * 72 / dpiX, height = Double(image.height) * 72 / dpiY
        let xobject = try imageObject(image)
        let placement = PDFPlacement(box: (0, 0, width, height), rotation: 0,
                                     pixelWidth: Double(image.width), pixelHeight: Double(image.height))
        let drawing = "q \(TextLayer.n(width)) 0 0 \(TextLayer.n(height)) 0 0 cm /OCRImage Do Q\n"
        let content = stream(drawing + textLayer(lines, placement))
        let turn = ((rotate % 360) + 360) % 360 / 90 * 90
        let page = parse("<< /Type /Page /MediaBox [0 0 \(TextLayer.n(width)) \(TextLayer.n(height))] "
                         + (turn == 0 ? "" : "/Rotate \(turn) ") + "/Resources << /XObject << >> /Font << >> >> >>")
        set(page, ["/Contents"], content)
        set(page, ["/Resources", "/XObject", "/OCRImage"], xobject)
        set(page, ["/Resources", "/Font", TextLayer.fontName], font)
        try append(qpdf_make_indirect_object(qpdf, page), from: qpdf)
    }

    /// Page `number` (1-based) of the PDF `bytes` as it is, with `lines` (boxes in the pixels of
    /// the `pixelWidth` x `pixelHeight` raster the words were recognised on: its crop box, rotated
    /// as shown) added as its text layer, under its content. `file` names it in errors. Pages
    /// taken from the same `file` share one reading of it, so what they share (a font, an image)
    /// is written once.
    package func addPDFPage(_ bytes: [UInt8], file: String, number: Int = 1, pixelWidth: Int, pixelHeight: Int,
                            lines: [[PDFTextWord]]) throws(OCRError) {
        let source = try open(bytes, file: file)
        guard (1...Int(qpdf_get_num_pages(source))).contains(number) else {
            throw OCRError(.invalidArgument, "\(file) has \(qpdf_get_num_pages(source)) pages, not \(number)")
        }
        try append(qpdf_get_page_n(source, number - 1), from: source)
        qpdf_push_inherited_attributes_to_page(qpdf)
        let page = qpdf_get_page_n(qpdf, pages - 1)
        guard !lines.isEmpty, pixelWidth > 0, pixelHeight > 0 else { return }
        let box = pageBox(page)
        let rotation = qpdf_oh_is_integer(qpdf, qpdf_oh_get_key(qpdf, page, "/Rotate")) == QPDF_TRUE
            ? Int(qpdf_oh_get_int_value_as_int(qpdf, qpdf_oh_get_key(qpdf, page, "/Rotate"))) : 0
        let placement = PDFPlacement(box: box, rotation: rotation, pixelWidth: Double(pixelWidth), pixelHeight: Double(pixelHeight))
        // The text layer goes under the original content, in q ... Q: drawn first, it starts
        // from the page's initial graphics state whatever the content does (an unbalanced Q or
        // a stray cm in a scanner's content stream would move text drawn after it), and the
        // content starts from that state as before. Invisible text needs no place on top.
        let contents = qpdf_oh_new_array(qpdf)
        qpdf_oh_append_item(qpdf, contents, stream("q\n" + textLayer(lines, placement) + "Q\n"))
        let original = qpdf_oh_get_key(qpdf, page, "/Contents")
        if case .success(let content) = qpdfPageContent(qpdf, page), let visible = ContentStreamText.removing(.invisible, from: content) {
            // An earlier OCR layer (invisible text, --redo-ocr) is replaced by ours: the page's
            // content without it, visible text kept. Content qpdf cannot decode stays as it is.
            qpdf_oh_append_item(qpdf, contents, stream(bytes: visible))
        } else if qpdf_oh_is_array(qpdf, original) == QPDF_TRUE {
            for i in 0..<qpdf_oh_get_array_n_items(qpdf, original) { qpdf_oh_append_item(qpdf, contents, qpdf_oh_get_array_item(qpdf, original, i)) }
        } else if qpdf_oh_is_stream(qpdf, original) == QPDF_TRUE {
            qpdf_oh_append_item(qpdf, contents, original)
        }
        qpdf_oh_replace_key(qpdf, page, "/Contents", contents)
        // The font goes into copies of the page's resource dictionaries: they may be shared.
        let resources = directCopy(qpdf_oh_get_key(qpdf, page, "/Resources"))
        let fonts = directCopy(qpdf_oh_get_key(qpdf, resources, "/Font"))
        qpdf_oh_replace_key(qpdf, fonts, TextLayer.fontName, font)
        qpdf_oh_replace_key(qpdf, resources, "/Font", fonts)
        qpdf_oh_replace_key(qpdf, page, "/Resources", resources)
        try check(qpdf_has_error(qpdf) == QPDF_TRUE ? QPDF_ERRORS : QPDF_SUCCESS, "adding the text layer to \(file)")
    }

    /// A page of `width` x `height` points without an image: empty (a page that failed), or
    /// only a text layer when `lines` has words (boxes in `pixelWidth` x `pixelHeight` pixels
    /// spread over the page).
    package func addBlankPage(width: Double, height: Double, lines: [[PDFTextWord]] = [],
                              pixelWidth: Double = 1, pixelHeight: Double = 1) throws(OCRError) {
        let placement = PDFPlacement(box: (0, 0, width, height), rotation: 0, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        let content = stream(lines.isEmpty ? "" : textLayer(lines, placement))
        let page = parse("<< /Type /Page /MediaBox [0 0 \(TextLayer.n(width)) \(TextLayer.n(height))] /Resources << /Font << >> >> >>")
        set(page, ["/Contents"], content)
        set(page, ["/Resources", "/Font", TextLayer.fontName], font)
        try append(qpdf_make_indirect_object(qpdf, page), from: qpdf)
    }

    /// What PDF/A-2b adds to a file: its output intent's ICC profile (sRGB) and the date the
    /// metadata gives as creation and modification date.
    package struct PDFA: Sendable {
        package var iccProfile: [UInt8]
        package var date: Date
        package init(iccProfile: [UInt8], date: Date = Date()) {
            self.iccProfile = iccProfile
            self.date = date
        }
    }

    /// The PDF: streams written as given (images keep their encoding), the rest compressed,
    /// objects in object streams, a deterministic /ID. With `pdfa`, also the PDF/A-2b
    /// identification: XMP metadata (`pdfaid:part 2`, `conformance B`, the same producer, tool
    /// and dates as the document information), an sRGB output intent, PDF 1.7.
    package func write(pdfa: PDFA? = nil) throws(OCRError) -> [UInt8] {
        guard pages > 0 else { throw OCRError(.failedPrecondition, "the document has no pages to write") }
        let stamp = pdfa.map { Self.pdfDate($0.date) }
        let info = parse("<< /Producer (ocr-cluster) /Creator (ocr-cluster searchable PDF) >>")
        if let stamp {
            qpdf_oh_replace_key(qpdf, info, "/CreationDate", qpdf_oh_new_string(qpdf, stamp))
            qpdf_oh_replace_key(qpdf, info, "/ModDate", qpdf_oh_new_string(qpdf, stamp))
        }
        qpdf_oh_replace_key(qpdf, qpdf_get_trailer(qpdf), "/Info", qpdf_make_indirect_object(qpdf, info))
        let cmap = Array(TextLayer.toUnicodeCMap(blocks: codeBlocks.isEmpty ? [0] : codeBlocks.sorted()).utf8)
        cmap.withUnsafeBufferPointer { data in
            qpdf_oh_replace_stream_data(qpdf, toUnicode, data.baseAddress, data.count, qpdf_oh_new_null(qpdf), qpdf_oh_new_null(qpdf))
        }
        if let pdfa { try addPDFAParts(pdfa) }
        try check(qpdf_init_write_memory(qpdf), "preparing to write the PDF")
        if pdfa != nil { qpdf_set_minimum_pdf_version(qpdf, "1.7") }
        qpdf_set_decode_level(qpdf, qpdf_dl_none)
        qpdf_set_compress_streams(qpdf, QPDF_TRUE)
        qpdf_set_object_stream_mode(qpdf, qpdf_o_generate)
        qpdf_set_deterministic_ID(qpdf, QPDF_TRUE)
        try check(qpdf_write(qpdf), "writing the PDF")
        let length = qpdf_get_buffer_length(qpdf)
        guard let bytes = qpdf_get_buffer(qpdf), length > 0 else { throw OCRError(.internal, "qpdf wrote no bytes") }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: length))
    }

    // MARK: -

    private func addPDFAParts(_ pdfa: PDFA) throws(OCRError) {
        guard !pdfa.iccProfile.isEmpty else { throw OCRError(.failedPrecondition, "PDF/A needs an sRGB ICC profile") }
        let root = qpdf_get_root(qpdf)
        let profile = stream(bytes: pdfa.iccProfile)
        qpdf_oh_replace_key(qpdf, qpdf_oh_get_dict(qpdf, profile), "/N", qpdf_oh_new_integer(qpdf, 3))
        let intent = parse("<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) >>")
        set(intent, ["/DestOutputProfile"], profile)
        let intents = qpdf_oh_new_array(qpdf)
        qpdf_oh_append_item(qpdf, intents, intent)
        qpdf_oh_replace_key(qpdf, root, "/OutputIntents", intents)
        let metadata = stream(bytes: Array(Self.xmp(date: Self.xmpDate(pdfa.date)).utf8))
        let dictionary = qpdf_oh_get_dict(qpdf, metadata)
        qpdf_oh_replace_key(qpdf, dictionary, "/Type", qpdf_oh_new_name(qpdf, "/Metadata"))
        qpdf_oh_replace_key(qpdf, dictionary, "/Subtype", qpdf_oh_new_name(qpdf, "/XML"))
        qpdf_oh_replace_key(qpdf, root, "/Metadata", metadata)
        try check(qpdf_has_error(qpdf) == QPDF_TRUE ? QPDF_ERRORS : QPDF_SUCCESS, "adding the PDF/A metadata")
    }

    /// The XMP packet PDF/A-2b asks for, agreeing with the document information dictionary.
    static func xmp(date: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
           <pdfaid:part>2</pdfaid:part>
           <pdfaid:conformance>B</pdfaid:conformance>
           <dc:format>application/pdf</dc:format>
           <pdf:Producer>ocr-cluster</pdf:Producer>
           <xmp:CreatorTool>ocr-cluster searchable PDF</xmp:CreatorTool>
           <xmp:CreateDate>\(date)</xmp:CreateDate>
           <xmp:ModifyDate>\(date)</xmp:ModifyDate>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    /// `D:YYYYMMDDHHmmSS+00'00'` (the information dictionary's date, in UTC).
    static func pdfDate(_ date: Date) -> String {
        "D:" + utc("yyyyMMddHHmmss", date) + "+00'00'"
    }

    /// The same instant as XMP writes it (ISO 8601, UTC).
    static func xmpDate(_ date: Date) -> String {
        utc("yyyy-MM-dd'T'HH:mm:ss", date) + "+00:00"
    }

    private static func utc(_ format: String, _ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = format
        return f.string(from: date)
    }

    /// The reading of `file`, made from `bytes` the first time.
    private func open(_ bytes: [UInt8], file: String) throws(OCRError) -> qpdf_data? {
        if let known = sourceOfFile[file] { return sources[known].handle }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
        let source = qpdf_init()
        sources.append((source, buffer))
        qpdf_silence_errors(source)
        qpdf_set_suppress_warnings(source, QPDF_TRUE)
        let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        try check(file.withCString { qpdf_read_memory(source, $0, base, UInt64(bytes.count), nil) }, "reading \(file)", handle: source)
        guard qpdf_get_num_pages(source) >= 1 else { throw OCRError(.invalidArgument, "\(file): the PDF has no pages") }
        sourceOfFile[file] = sources.count - 1
        return source
    }

    private func append(_ page: qpdf_oh, from source: qpdf_data?) throws(OCRError) {
        try check(qpdf_add_page(qpdf, source, page, QPDF_FALSE), "adding page \(pages + 1)")
        pages += 1
    }

    /// The crop box (else the media box, else US Letter), normalised so ll < ur.
    private func pageBox(_ page: qpdf_oh) -> (llx: Double, lly: Double, urx: Double, ury: Double) {
        for key in ["/CropBox", "/MediaBox"] {
            let array = qpdf_oh_get_key(qpdf, page, key)
            guard qpdf_oh_is_array(qpdf, array) == QPDF_TRUE, qpdf_oh_get_array_n_items(qpdf, array) == 4 else { continue }
            let v = (0..<4).map { qpdf_oh_get_numeric_value(qpdf, qpdf_oh_get_array_item(qpdf, array, Int32($0))) }
            guard v.allSatisfy(\.isFinite), v[0] != v[2], v[1] != v[3] else { continue }
            return (min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3]))
        }
        return (0, 0, 612, 792)
    }

    /// A new direct dictionary with the same entries as `object` (empty when it is not a
    /// dictionary): changing it changes nothing another page shares.
    private func directCopy(_ object: qpdf_oh) -> qpdf_oh {
        let copy = qpdf_oh_new_dictionary(qpdf)
        guard qpdf_oh_is_dictionary(qpdf, object) == QPDF_TRUE else { return copy }
        qpdf_oh_begin_dict_key_iter(qpdf, object)
        while qpdf_oh_dict_more_keys(qpdf) == QPDF_TRUE {
            guard let key = qpdf_oh_dict_next_key(qpdf) else { break }
            let name = String(cString: key)
            qpdf_oh_replace_key(qpdf, copy, name, qpdf_oh_get_key(qpdf, object, name))
        }
        return copy
    }

    private func imageObject(_ image: PdfImage) throws(OCRError) -> qpdf_oh {
        let colorSpace: String
        switch (image.palette.isEmpty, image.components) {
        case (false, _):
            let colors = image.palette.count / 3
            guard colors >= 1, colors <= 256 else { throw OCRError(.invalidArgument, "the page image's palette has \(image.palette.count) bytes") }
            colorSpace = "[/Indexed /DeviceRGB \(colors - 1) <\(image.palette.prefix(colors * 3).map { String(format: "%02X", $0) }.joined())>]"
        case (true, 1): colorSpace = "/DeviceGray"
        case (true, 3): colorSpace = "/DeviceRGB"
        case (true, 4): colorSpace = "/DeviceCMYK"
        default: throw OCRError(.invalidArgument, "the page image has \(image.components) colour components")
        }
        let filter: String, parms: String
        switch image.encoding {
        case .dct: (filter, parms) = ("/DCTDecode", "null")
        case .ccittG4: (filter, parms) = ("/CCITTFaxDecode", "<< /K -1 /Columns \(image.width) /Rows \(image.height) /BlackIs1 \(image.blackIs1) >>")
        case .flate: (filter, parms) = ("/FlateDecode", "null")
        default: throw OCRError(.invalidArgument, "the page image's encoding \(image.encoding) is not one a PDF image can have")
        }
        let object = qpdf_oh_new_stream(qpdf)
        let dictionary = qpdf_oh_get_dict(qpdf, object)
        let entries = parse("""
            << /Type /XObject /Subtype /Image /Width \(image.width) /Height \(image.height)
               /BitsPerComponent \(image.encoding == .ccittG4 ? 1 : image.bitsPerComponent) /ColorSpace \(image.encoding == .ccittG4 ? "/DeviceGray" : colorSpace) >>
            """)
        for key in ["/Type", "/Subtype", "/Width", "/Height", "/BitsPerComponent", "/ColorSpace"] {
            qpdf_oh_replace_key(qpdf, dictionary, key, qpdf_oh_get_key(qpdf, entries, key))
        }
        image.data.withUnsafeBufferPointer { data in
            qpdf_oh_replace_stream_data(qpdf, object, data.baseAddress, data.count, qpdf_oh_new_name(qpdf, filter), parse(parms))
        }
        return object
    }

    /// The glyphless font, as Tesseract's PDF renderer defines it: a Type0 font over a
    /// CIDFontType2 whose every CID maps to glyph 1, each half an em wide, with Unicode back
    /// through ToUnicode. Ascent one em and (almost) no descent, so a glyph's box is its word's
    /// box: a Descent of 0 reads as "unknown" to poppler, which then assumes 0.35 em.
    private func makeFont(_ program: [UInt8]?) throws(OCRError) -> qpdf_oh {
        let cidToGID = stream(bytes: (0..<65536).flatMap { _ in [UInt8(0), UInt8(1)] })
        toUnicode = stream("")
        let descriptor = parse("""
            << /Type /FontDescriptor /FontName /GlyphLessFont /Flags 5 /FontBBox [0 0 500 1000] /ItalicAngle 0
               /Ascent 1000 /Descent -1 /CapHeight 1000 /StemV 80 >>
            """)
        if let program, !program.isEmpty {
            let file = stream(bytes: program)
            qpdf_oh_replace_key(qpdf, qpdf_oh_get_dict(qpdf, file), "/Length1", qpdf_oh_new_integer(qpdf, Int64(program.count)))
            set(descriptor, ["/FontFile2"], file)
        }
        let cidFont = parse("""
            << /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont
               /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 >>
            """)
        set(cidFont, ["/FontDescriptor"], qpdf_make_indirect_object(qpdf, descriptor))
        set(cidFont, ["/CIDToGIDMap"], cidToGID)
        let type0 = parse("<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H >>")
        let descendants = qpdf_oh_new_array(qpdf)
        qpdf_oh_append_item(qpdf, descendants, qpdf_make_indirect_object(qpdf, cidFont))
        set(type0, ["/DescendantFonts"], descendants)
        set(type0, ["/ToUnicode"], toUnicode)
        try check(qpdf_has_error(qpdf) == QPDF_TRUE ? QPDF_ERRORS : QPDF_SUCCESS, "making the text layer's font")
        return qpdf_make_indirect_object(qpdf, type0)
    }

    private func stream(_ text: String) -> qpdf_oh { stream(bytes: Array(text.utf8)) }

    /// The text layer of `lines`, noting the code blocks it uses for the ToUnicode map.
    private func textLayer(_ lines: [[PDFTextWord]], _ placement: PDFPlacement) -> String {
        for word in lines.joined() { for unit in word.text.utf16 { codeBlocks.insert(UInt8(unit >> 8)) } }
        return TextLayer.content(lines: lines, placement: placement)
    }

    /// A new stream of unencoded `bytes` (compressed when written).
    private func stream(bytes: [UInt8]) -> qpdf_oh {
        let object = qpdf_oh_new_stream(qpdf)
        bytes.withUnsafeBufferPointer { data in
            qpdf_oh_replace_stream_data(qpdf, object, data.baseAddress, data.count, qpdf_oh_new_null(qpdf), qpdf_oh_new_null(qpdf))
        }
        return object
    }

    private func parse(_ text: String) -> qpdf_oh { qpdf_oh_parse(qpdf, text) }

    /// Sets `value` at the end of a path of keys through nested dictionaries (qpdf parses text
    /// without references to other objects, so those are set after parsing).
    private func set(_ dictionary: qpdf_oh, _ path: [String], _ value: qpdf_oh) {
        var node = dictionary
        for key in path.dropLast() { node = qpdf_oh_get_key(qpdf, node, key) }
        qpdf_oh_replace_key(qpdf, node, path.last!, value)
    }

    private func check(_ status: QPDF_ERROR_CODE, _ what: String, handle: qpdf_data? = nil) throws(OCRError) {
        guard let reason = qpdfFailure(status, handle ?? qpdf) else { return }
        throw OCRError(.invalidArgument, "\(what) failed: \(reason)")
    }
}
