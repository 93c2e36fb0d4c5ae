// The one check of a job's `RecognitionOptions`, shared by whoever sees them first: the client
// before it sends, the coordinator at submit (so a bad value is refused once, naming the field,
// and not on every page), and the engine before it reads a page (a task from any peer).

extension Ocr_V1_RecognitionOptions {
    /// The most alternatives a word may carry.
    package static let maximumCandidates: UInt32 = 10
    /// The highest resolution a page may be read at (`dpi`).
    package static let maximumDPI: UInt32 = 2400

    /// The languages as Tesseract's codes (`eng` when none are given).
    package var languageCodes: [String] {
        (languages.isEmpty ? "eng" : languages).split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    }

    /// Throws INVALID_ARGUMENT naming the first field that is not valid (`details["field"]` is
    /// its name in `options.proto`): an enum value this version does not know, a number out of
    /// its range, a malformed page range or language list.
    package func validate() throws(OCRError) {
        if case .unrecognized(let v) = level { throw Self.invalid("level", "unknown recognition level \(v)") }
        if case .unrecognized(let v) = engineMode { throw Self.invalid("engine_mode", "unknown engine mode \(v)") }
        if case .unrecognized(let v) = binarization { throw Self.invalid("binarization", "unknown binarization \(v)") }
        if case .unrecognized(let v) = pageDetection { throw Self.invalid("page_detection", "unknown page detection \(v)") }
        if case .unrecognized(let v) = pdfTextLayer { throw Self.invalid("pdf_text_layer", "unknown PDF text layer choice \(v)") }
        if case .unrecognized(let v) = pageSegmentationMode { throw Self.invalid("page_segmentation_mode", "unknown page segmentation mode \(v)") }
        if !engine.isEmpty, engine.utf8.count > 64 || !engine.utf8.allSatisfy({ ("a"..."z").contains(Character(UnicodeScalar($0)))
                || ("0"..."9").contains(Character(UnicodeScalar($0))) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }) {
            throw Self.invalid("engine", "engine must be lowercase letters, digits, '-', '_' and '.' (at most 64), got '\(engine.prefix(80))'")
        }
        if candidates > Self.maximumCandidates {
            throw Self.invalid("candidates", "candidates must be 1...\(Self.maximumCandidates), got \(candidates)")
        }
        // `contains` is false for NaN too.
        if !(0...1).contains(minimumConfidence) {
            throw Self.invalid("minimum_confidence", "minimum_confidence must be in 0...1, got \(minimumConfidence)")
        }
        if !(0...1).contains(minimumTextHeight) {
            throw Self.invalid("minimum_text_height", "minimum_text_height must be in 0...1, got \(minimumTextHeight)")
        }
        if let roi = regionOfInterest {
            let inside = roi.x >= 0 && roi.y >= 0 && roi.width > 0 && roi.height > 0
                && roi.x + roi.width <= 1.000001 && roi.y + roi.height <= 1.000001
            if !inside { throw Self.invalid("region_of_interest", "region_of_interest must be a non-empty rectangle inside 0...1") }
        }
        if dpi > Self.maximumDPI { throw Self.invalid("dpi", "dpi must be at most \(Self.maximumDPI), got \(dpi)") }
        for range in pageRanges where range.first == 0 || (range.last != 0 && range.last < range.first) {
            throw Self.invalid("page_ranges", "page range \(range.first)-\(range.last) is not valid (pages count from 1)")
        }
        // Tesseract's codes: letters, digits, `_` and `-` (eng, chi_sim, deu-latf), joined by `+`.
        let codeCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        if languageCodes.contains(where: { $0.isEmpty || !$0.allSatisfy(codeCharacters.contains) }) {
            throw Self.invalid("languages", "languages must be Tesseract codes joined with '+', like eng+deu (got '\(languages)')")
        }
    }

    private static func invalid(_ field: String, _ message: String) -> OCRError {
        OCRError(.invalidArgument, message, details: ["field": field])
    }
}
