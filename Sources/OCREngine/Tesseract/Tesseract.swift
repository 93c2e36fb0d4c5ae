import OCRLeptonica
import OCRPageModel
import CLeptonica
import CTesseract
import Foundation
import OCRPageEngine
import OCRWire

// The one Swift file that touches Tesseract's C API. `TessAPI` owns one TessBaseAPI and frees it
// in deinit; iterators and the monitor are freed with `defer` in the function that made them.
// Nothing here is thread-safe: a TessAPI lives on one engine thread.

/// Tesseract's engine modes we use.
enum TessEngineMode {
    case lstm, legacy, combined
    var raw: TessOcrEngineMode {
        switch self {
        case .lstm: OEM_LSTM_ONLY
        case .legacy: OEM_TESSERACT_ONLY
        case .combined: OEM_TESSERACT_LSTM_COMBINED
        }
    }
}

/// One owned TessBaseAPI, initialised once.
final class TessAPI {
    private let handle: OpaquePointer

    /// Creates and initialises an engine. `variables` are init-only settings
    /// (e.g. `load_system_dawg`). Throws `FAILED_PRECONDITION` when Tesseract cannot load the data.
    init(datapath: String, language: String, mode: TessEngineMode, variables: [(String, String)]) throws(OCRError) {
        // TessBaseAPICreate: never NULL in practice (operator new), checked anyway.
        handle = try CheckC.nonNull(TessBaseAPICreate(), "creating a Tesseract instance")
        // Tesseract's own messages (tprintf: "Detected 12 diacritics", "Estimating resolution",
        // "WARNING! LEAK!" at exit) would land on stderr among our key=value log lines and under
        // ocr-submit --quiet. debug_file is a global that tprintf checks on every call; "/dev/null"
        // makes it return at once. Failures reach us through the API's return codes.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let names = variables.map { strdup($0.0) }, values = variables.map { strdup($0.1) }
        defer { names.forEach { free($0) }; values.forEach { free($0) } }
        var namePtrs = names, valuePtrs = values
        // TessBaseAPIInit4: 0 on success, -1 when the traineddata cannot be loaded.
        let rc = namePtrs.withUnsafeMutableBufferPointer { n in
            valuePtrs.withUnsafeMutableBufferPointer { v in
                TessBaseAPIInit4(handle, datapath, language, mode.raw, nil, 0, n.baseAddress, v.baseAddress, variables.count, 0)
            }
        }
        // On failure, deinit still runs (every stored property is set) and frees the handle.
        try CheckC.zero(rc, "loading Tesseract language data \(language) from \(datapath)", code: .failedPrecondition)
    }

    deinit {
        TessBaseAPIEnd(handle)     // Frees models and results.
        TessBaseAPIDelete(handle)  // Frees the instance.
    }

    /// Sets a run-time variable. Throws `INVALID_ARGUMENT` for a name Tesseract does not know.
    func set(_ name: String, _ value: String) throws(OCRError) {
        // TessBaseAPISetVariable: TRUE when the variable exists and was set.
        try CheckC.true_(TessBaseAPISetVariable(handle, name, value), "setting Tesseract variable \(name)", code: .invalidArgument)
    }

    func setPageSegMode(_ psm: Int) { TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(psm))) }

    /// Gives Tesseract the image (it keeps its own reference) and its resolution.
    func setImage(_ pix: OCRLeptonica.Pix, dpi: Int) {
        TessBaseAPISetImage2(handle, pix.raw)  // Clones the PIX; no return value.
        TessBaseAPISetSourceResolution(handle, Int32(dpi))
    }

    /// Forgets the image, results and the adaptive classifier's state, so the next page does not
    /// depend on this one.
    func clear() {
        TessBaseAPIClear(handle)
        TessBaseAPIClearAdaptiveClassifier(handle)
    }

    /// Recognises the image under `monitor`. Returns false when Tesseract gave up (deadline, cancel
    /// or an internal failure); the caller asks the monitor which.
    func recognize(_ monitor: Monitor) -> Bool {
        TessBaseAPIRecognize(handle, monitor.raw) == 0  // 0 on success, -1 on failure or stop.
    }

    /// The page text as the CLI prints it (`tesseract img stdout`).
    func text() -> String {
        guard let p = TessBaseAPIGetUTF8Text(handle) else { return "" }  // NULL when nothing recognised.
        defer { TessDeleteText(p) }
        return String(cString: p)
    }

    /// Whether `word` is in the loaded model's dictionary (an LSTM-only model answers from its
    /// LSTM word list; false for every word when language correction is off).
    func isValidWord(_ word: String) -> Bool { !word.isEmpty && TessBaseAPIIsValidWord(handle, word) != 0 }

    /// The 1 bpp image the last recognition read its layout from (Tesseract's own thresholding
    /// of the image given), in that image's pixels; nil before a recognition or after `clear`.
    func thresholdedImage() -> OCRLeptonica.Pix? {
        TessBaseAPIGetThresholdedImage(handle).map { OCRLeptonica.Pix(owning: $0) }  // A new PIX the caller frees; NULL without an image.
    }

    /// Mean word confidence 0...100 (0 when there are no words).
    func meanConfidence() -> Int { Int(TessBaseAPIMeanTextConf(handle)) }

    /// Orientation (0, 90, 180, 270: how far the page is turned clockwise) and confidence.
    /// Needs an instance initialised with `osd`. `nil` when OSD finds too little text.
    func detectOrientation() -> (degrees: Int, confidence: Float)? {
        var degrees: Int32 = 0, confidence: Float = 0, scriptConfidence: Float = 0
        // TRUE on success; FALSE when there are too few characters to decide.
        guard TessBaseAPIDetectOrientationScript(handle, &degrees, &confidence, nil, &scriptConfidence) != 0 else { return nil }
        return (Int(degrees), confidence)
    }

    /// Layout analysis only; the blocks, paragraphs, lines, words and (if asked) symbol boxes.
    func analyseLayout(symbols: Bool) -> [RawBlock] {
        guard let it = TessBaseAPIAnalyseLayout(handle) else { return [] }  // NULL: nothing found.
        defer { TessPageIteratorDelete(it) }
        return Self.walk(it, result: nil, symbols: symbols, choices: false)
    }

    /// The recognised hierarchy in reading order, with symbols and (if asked) their LSTM choices.
    func results(choices: Bool) -> [RawBlock] {
        guard let ri = TessBaseAPIGetIterator(handle) else { return [] }  // NULL: nothing recognised.
        defer { TessResultIteratorDelete(ri) }
        guard let pi = TessResultIteratorGetPageIterator(ri) else { return [] }  // The same object, as a page iterator.
        return Self.walk(pi, result: ri, symbols: true, choices: choices)
    }

    // MARK: Iteration

    private static func rect(_ it: OpaquePointer, _ level: TessPageIteratorLevel) -> RawRect? {
        var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
        // FALSE when there is no element at this level (e.g. an empty block).
        guard TessPageIteratorBoundingBox(it, level, &l, &t, &r, &b) != 0 else { return nil }
        return RawRect(left: Int(l), top: Int(t), right: Int(r), bottom: Int(b))
    }

    private static func text(_ ri: OpaquePointer?, _ level: TessPageIteratorLevel) -> String {
        guard let ri, let p = TessResultIteratorGetUTF8Text(ri, level) else { return "" }  // NULL: no text.
        defer { TessDeleteText(p) }
        return String(cString: p)
    }

    private static func confidence(_ ri: OpaquePointer?, _ level: TessPageIteratorLevel) -> Float {
        guard let ri else { return 0 }
        return min(1, max(0, TessResultIteratorConfidence(ri, level) / 100))  // 0...100, 0 when empty.
    }

    private static func blockType(_ it: OpaquePointer) -> BlockType {
        switch TessPageIteratorBlockType(it) {
        case PT_FLOWING_TEXT, PT_HEADING_TEXT, PT_PULLOUT_TEXT, PT_VERTICAL_TEXT, PT_CAPTION_TEXT: .text
        case PT_TABLE: .table
        case PT_FLOWING_IMAGE, PT_HEADING_IMAGE, PT_PULLOUT_IMAGE: .image
        case PT_HORZ_LINE, PT_VERT_LINE: .separator
        default: .other
        }
    }

    private static func choices(_ ri: OpaquePointer) -> [(text: String, confidence: Float)] {
        guard let ci = TessResultIteratorGetChoiceIterator(ri) else { return [] }  // NULL: no symbol here.
        defer { TessChoiceIteratorDelete(ci) }
        var out: [(String, Float)] = []
        repeat {
            if let p = TessChoiceIteratorGetUTF8Text(ci) {  // Owned by the iterator: not freed.
                out.append((String(cString: p), min(1, max(0, TessChoiceIteratorConfidence(ci) / 100))))
            }
        } while TessChoiceIteratorNext(ci) != 0 && out.count < 16
        return out
    }

    /// Walks an iterator at symbol granularity, opening a block/paragraph/line/word whenever the
    /// iterator is at the beginning of one. Reading order is the iterator's.
    private static func walk(_ it: OpaquePointer, result ri: OpaquePointer?, symbols: Bool, choices wantChoices: Bool) -> [RawBlock] {
        var blocks: [RawBlock] = []
        TessPageIteratorBegin(it)
        repeat {
            // A block start is a paragraph start is a line start is a word start, so the costly
            // questions are only asked when the cheaper one says yes: for a ResultIterator each
            // line-or-above IsAtBeginningOf walks the whole text line (bidi reading order), and
            // asking all three at every symbol made result building ~10% of a dense page's time.
            let atWord = TessPageIteratorIsAtBeginningOf(it, RIL_WORD) != 0
            let atLine = atWord && TessPageIteratorIsAtBeginningOf(it, RIL_TEXTLINE) != 0
            let atPara = atLine && TessPageIteratorIsAtBeginningOf(it, RIL_PARA) != 0
            let atBlock = atPara && TessPageIteratorIsAtBeginningOf(it, RIL_BLOCK) != 0
            if atBlock || blocks.isEmpty {
                guard let r = rect(it, RIL_BLOCK) else { continue }
                blocks.append(RawBlock(confidence: confidence(ri, RIL_BLOCK), rect: r, type: blockType(it)))
            }
            if atPara || blocks[blocks.count - 1].paragraphs.isEmpty {
                guard let r = rect(it, RIL_PARA) else { continue }
                blocks[blocks.count - 1].paragraphs.append(RawParagraph(confidence: confidence(ri, RIL_PARA), rect: r))
            }
            let b = blocks.count - 1, p = blocks[b].paragraphs.count - 1
            if atLine || blocks[b].paragraphs[p].lines.isEmpty {
                guard let r = rect(it, RIL_TEXTLINE) else { continue }
                var line = RawLine(confidence: confidence(ri, RIL_TEXTLINE), rect: r)
                var x1: Int32 = 0, y1: Int32 = 0, x2: Int32 = 0, y2: Int32 = 0
                if TessPageIteratorBaseline(it, RIL_TEXTLINE, &x1, &y1, &x2, &y2) != 0 {  // FALSE: no baseline.
                    line.baseline = [Int(x1), Int(y1), Int(x2), Int(y2)]
                }
                blocks[b].paragraphs[p].lines.append(line)
            }
            let l = blocks[b].paragraphs[p].lines.count - 1
            if atWord || blocks[b].paragraphs[p].lines[l].words.isEmpty {
                guard let r = rect(it, RIL_WORD) else { continue }
                var word = RawWord(text: text(ri, RIL_WORD), confidence: confidence(ri, RIL_WORD), rect: r)
                if let ri { word.fromDictionary = TessResultIteratorWordIsFromDictionary(ri) != 0 }
                blocks[b].paragraphs[p].lines[l].words.append(word)
            }
            if symbols, let r = rect(it, RIL_SYMBOL) {
                var symbol = RawSymbol(text: text(ri, RIL_SYMBOL), confidence: confidence(ri, RIL_SYMBOL), rect: r)
                if wantChoices, let ri { symbol.choices = choices(ri) }
                let w = blocks[b].paragraphs[p].lines[l].words.count - 1
                blocks[b].paragraphs[p].lines[l].words[w].symbols.append(symbol)
            }
        } while TessPageIteratorNext(it, RIL_SYMBOL) != 0
        return blocks
    }
}

/// Tesseract's progress monitor (`ETEXT_DESC`) with a cancel callback that asks a Swift object,
/// so both the per-page deadline and cancellation stop recognition between words.
final class Monitor {
    /// Why recognition was asked to stop, if it was.
    final class State {
        let deadline: ContinuousClock.Instant?
        let cancellation: PageControl?
        private(set) var stopReason: StatusCode?
        init(deadline: ContinuousClock.Instant?, cancellation: PageControl?) {
            self.deadline = deadline
            self.cancellation = cancellation
        }
        func shouldStop() -> Bool {
            if stopReason != nil { return true }
            if cancellation?.isCancelled == true { stopReason = .cancelled }
            else if let deadline, ContinuousClock.now >= deadline { stopReason = .deadlineExceeded }
            return stopReason != nil
        }
    }

    let raw: OpaquePointer
    let state: State

    init(state: State) throws(OCRError) {
        self.state = state
        raw = try CheckC.nonNull(TessMonitorCreate(), "creating a Tesseract monitor")  // NULL only if out of memory.
        TessMonitorSetCancelThis(raw, Unmanaged.passUnretained(state).toOpaque())
        // Called by Tesseract between words with `cancel_this`; returning true stops recognition.
        TessMonitorSetCancelFunc(raw) { this, _ in
            guard let this else { return false }
            return Unmanaged<Monitor.State>.fromOpaque(this).takeUnretainedValue().shouldStop()
        }
    }

    deinit { TessMonitorDelete(raw) }
}

/// Asks OpenMP (which libtesseract uses for its LSTM) to run parallel regions on the calling
/// thread only. `OMP_THREAD_LIMIT` is read by libgomp when it is loaded, before any Swift code
/// runs, so setting the variable in-process is too late; limiting the active levels to 0 on each
/// engine thread serialises every parallel region (even those with a `num_threads` clause).
enum OpenMP {
    /// Runs once, on the first engine thread that starts (a `static let` is initialised once,
    /// thread-safely).
    private static let setEnvironmentOnce: Void = { setenv("OMP_THREAD_LIMIT", "1", 1) }()

    static func limitToCallingThread() {
        // The environment is the process's: set once (setenv is not safe while other threads
        // read the environment), for child processes and anyone reading it later.
        _ = setEnvironmentOnce
        typealias SetInt = @convention(c) (Int32) -> Void
        // dlsym: NULL when libgomp is not loaded (Tesseract built without OpenMP): nothing to do.
        if let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_max_active_levels") {
            unsafeBitCast(f, to: SetInt.self)(0)
        }
        if let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_num_threads") {
            unsafeBitCast(f, to: SetInt.self)(1)
        }
    }
}
