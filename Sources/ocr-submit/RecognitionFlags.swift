import OCRClient
import OCRCommandLine
import OCRWire

/// The recognition options of `ocr-submit`, as flags, and their mapping to `RecognitionOptions`.
enum RecognitionFlags {
    static let options: [OptionSpec] = [
        .option("--lang", short: "-l", value: "LANGS", help: "Tesseract languages joined with '+', e.g. eng+deu (default eng)."),
        .option("--level", value: "LEVEL", help: "accurate (default), fast, or best (more passes on pages the first is unsure of)."),
        .flag("--no-language-correction", help: "Do not correct words with dictionaries (Vision: usesLanguageCorrection = false)."),
        .option("--psm", value: "N", help: "Tesseract page segmentation mode 0-13 (default 3, automatic)."),
        .option("--dpi", value: "N", help: "Resolution of the images, over their tags (default: the tag when plausible for the page size, else estimated); PDF rasterisation DPI."),
        .option("--candidates", value: "N", help: "Candidates per word, 1-10 (default 1)."),
        .option("--min-confidence", value: "F", help: "Drop words below this confidence, 0-1."),
        .option("--whitelist", value: "CHARS", help: "Only recognise these characters."),
        .option("--roi", value: "X,Y,W,H", help: "Region of interest, normalised 0-1, top-left origin."),
        .option("--min-text-height", value: "F", help: "Ignore text smaller than this fraction of the page height."),
        .flag("--detect-only", help: "Layout only: text boxes without recognition."),
        .flag("--character-boxes", help: "With --detect-only: also report character boxes."),
        .flag("--deskew", help: "Straighten skewed scans first."),
        .flag("--auto-rotate", help: "Detect and undo 90/180/270 degree rotation (Tesseract OSD)."),
        .option("--binarize", value: "METHOD", help: "otsu, sauvola or none (default: Tesseract's own)."),
        .option("--ocr-engine", value: "NAME", help: "The engine that reads the pages, as workers announce theirs (default tesseract): the job's pages go only to workers that run it (a worker written from PROTOCOL.md announces its own)."),
        .option("--engine-mode", value: "MODE", help: "lstm (default), legacy or combined: Tesseract's recogniser; legacy and combined need the full model on the workers (ocr-worker --legacy-tessdata)."),
        .option("--page-detection", value: "MODE", help: "auto (default: a photographed page is found, flattened and straightened; scans are read as they are) or off."),
        .option("--page-timeout", value: "SECONDS", help: "Per-page recognition limit."),
        .option("--pages", value: "RANGES", help: "Only these pages of the job, 1-based: 1-3,7,10-."),
        .option("--words", value: "W1,W2", help: "Extra dictionary words (Vision: customWords)."),
        .flag("--skip-text", help: "PDF pages that already have text are not OCRed: their own text is taken (per page)."),
        .flag("--force-ocr", help: "OCR every PDF page, text layer or not; in a PDF, a page that had text becomes the image it was read from (default: such a page fails, named)."),
        .flag("--redo-ocr", help: "Replace an earlier OCR layer: PDF pages are read without their text, keep their visible content, and their invisible text is replaced by ours."),
    ]

    static func make(_ a: ParsedArguments) throws(UsageError) -> RecognitionOptions {
        var o = RecognitionOptions()
        let command = "ocr-submit"
        if let langs = a.string("--lang") { o.languages = langs }
        if let engine = a.string("--ocr-engine") { o.engine = engine }
        switch try a.choice("--level", ["accurate", "fast", "best"]) {
        case "fast": o.level = .fast
        case "best": o.level = .best
        case "accurate": o.level = .accurate
        default: break
        }
        if a.flag("--no-language-correction") { o.languageCorrection = false }
        if let psm = try a.int("--psm", range: 0...13) { o.pageSegmentationMode = PageSegmentationMode(rawValue: Int32(psm + 1)) }
        if let dpi = try a.int("--dpi", range: 50...2400) { o.dpi = UInt32(dpi) }
        if let n = try a.int("--candidates", range: 1...10) { o.candidates = UInt32(n) }
        if let c = try a.double("--min-confidence", range: 0...1) { o.minimumConfidence = Float(c) }
        if let w = a.string("--whitelist") { o.characterWhitelist = w }
        if let roi = a.string("--roi") {
            let parts = roi.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 4, parts.allSatisfy({ (0...1).contains($0) }) else {
                throw UsageError("--roi expects four numbers 0-1: X,Y,W,H, got '\(roi)'", command: command)
            }
            o.regionOfInterest = Ocr_V1_NormalizedRect.with { $0.x = parts[0]; $0.y = parts[1]; $0.width = parts[2]; $0.height = parts[3] }
        }
        if let h = try a.double("--min-text-height", range: 0...1) { o.minimumTextHeight = Float(h) }
        o.detectOnly = a.flag("--detect-only")
        o.reportCharacterBoxes = a.flag("--character-boxes")
        o.deskew = a.flag("--deskew")
        o.autoRotate = a.flag("--auto-rotate")
        switch try a.choice("--binarize", ["otsu", "sauvola", "none"]) {
        case "otsu": o.binarization = .otsu
        case "sauvola": o.binarization = .sauvola
        case "none": o.binarization = .disabled
        default: break
        }
        switch try a.choice("--engine-mode", ["lstm", "legacy", "combined"]) {
        case "legacy": o.engineMode = .legacy
        case "combined": o.engineMode = .combined
        default: break
        }
        if try a.choice("--page-detection", ["auto", "off"]) == "off" { o.pageDetection = .off }
        if let t = try a.double("--page-timeout", range: 0.001...86_400) { o.pageTimeoutMs = UInt32(t * 1000) }
        if let pages = a.string("--pages") { o.pageRanges = try parseRanges(pages) }
        if let words = a.string("--words") { o.customWords = words.split(separator: ",").map(String.init) }
        let textLayer = [("--skip-text", PdfTextLayer.skip), ("--force-ocr", .forceOcr), ("--redo-ocr", .redoOcr)].filter { a.flag($0.0) }
        if textLayer.count > 1 {
            throw UsageError("\(textLayer.map(\.0).joined(separator: " and ")) exclude each other", command: command)
        }
        if let chosen = textLayer.first { o.pdfTextLayer = chosen.1 }
        return o
    }

    /// "1-3,7,10-" -> [1-3, 7-7, 10-end].
    static func parseRanges(_ text: String) throws(UsageError) -> [PageRange] {
        do {
            return try Array<PageRange>(parsing: text)
        } catch {
            throw UsageError("--pages expects ranges like 1-3,7,10-, got '\(text)'", command: "ocr-submit")
        }
    }
}
