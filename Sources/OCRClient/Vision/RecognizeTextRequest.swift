import Foundation
import OCRWire

/// Finds and recognises text lines, as Vision's text request does, performed by the cluster.
///
/// ```swift
/// var request = RecognizeTextRequest()
/// request.recognitionLevel = .fast
/// request.regionOfInterest = NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5)  // top half
/// let pages = try await request.perform(on: [URL(fileURLWithPath: "scan.tiff")], using: client)
/// for line in pages[0] { print(line.topCandidates(1).first?.string ?? "") }
/// ```
///
/// Vision: `RecognizeTextRequest` (Swift) / `VNRecognizeTextRequest`, performed with
/// `ImageRequestHandler.perform(_:)` / `VNImageRequestHandler.perform(_:)`.
public struct RecognizeTextRequest: Sendable {
    /// Accuracy against speed. Vision: `RecognizeTextRequest.RecognitionLevel` /
    /// `VNRequestTextRecognitionLevel`.
    public enum RecognitionLevel: Sendable, Hashable {
        /// Full models at full resolution. Vision: `.accurate`.
        case accurate
        /// Fast models, reduced resolution. Vision: `.fast`.
        case fast
    }

    /// Vision: `recognitionLevel` (default `.accurate`).
    public var recognitionLevel: RecognitionLevel = .accurate
    /// Correct words with dictionaries (Tesseract's system and frequency word lists).
    /// Vision: `usesLanguageCorrection` (default true).
    public var usesLanguageCorrection = true
    /// Languages, most important first: BCP 47 tags as Vision takes them (`"en-US"`, `"de"`,
    /// `"zh-Hans"`) or Tesseract codes (`"eng"`, `"deu"`). Empty: the engine's default (English).
    /// Vision: `recognitionLanguages` (default `["en-US"]`).
    public var recognitionLanguages: [String] = ["en-US"]
    /// Words to add to the dictionary (Tesseract user words). Vision: `customWords`.
    public var customWords: [String] = []
    /// Text smaller than this fraction of the image height is ignored (0: keep everything).
    /// Vision: `minimumTextHeightFraction` (Swift) / `minimumTextHeight`.
    public var minimumTextHeight: Float = 0
    /// Only this part of each page is read: normalised, bottom-left origin, as in Vision.
    /// Unlike Vision, result boxes stay relative to the whole image (see
    /// `NormalizedRect.relative(to:)` to get Vision's ROI-relative boxes).
    /// Vision: `regionOfInterest` (default `NormalizedRect.fullImage`).
    public var regionOfInterest: NormalizedRect = .fullImage

    // Tesseract's own knobs (no Vision equivalent).

    /// How many readings the engine keeps per word, 1...10: ask for at least the `n` you will
    /// pass to `topCandidates(_:)` (Vision computes candidates on demand; a cluster must ask up front).
    public var maximumCandidates = 1
    /// Only these characters may be recognised (`tessedit_char_whitelist`). Empty: all.
    public var characterWhitelist = ""
    /// Tesseract page segmentation (`--psm`). `.unspecified`: automatic.
    public var pageSegmentationMode: PageSegmentationMode = .unspecified
    /// Anything else of the wire options (binarisation, deskew, page ranges...): the request's
    /// own properties are written over it.
    public var baseOptions = RecognitionOptions()

    /// A request with the defaults above (accurate, English, language correction on).
    public init() {}

    /// The wire options this request sends. Throws INVALID_ARGUMENT for a region of interest
    /// outside the image or a minimum text height outside 0...1 (Vision throws too).
    public func recognitionOptions() throws(OCRError) -> RecognitionOptions {
        var options = baseOptions
        options.level = recognitionLevel == .fast ? .fast : .accurate
        options.languageCorrection = usesLanguageCorrection
        options.languages = Self.tesseractLanguages(recognitionLanguages)
        options.customWords = customWords
        guard (0...1).contains(minimumTextHeight) else {
            throw OCRError(.invalidArgument, "minimumTextHeight \(minimumTextHeight) is not within 0...1")
        }
        options.minimumTextHeight = minimumTextHeight
        options.regionOfInterest = try regionOfInterest.wireRegionOfInterest()
        options.candidates = UInt32(min(10, max(1, maximumCandidates)))
        options.characterWhitelist = characterWhitelist
        options.pageSegmentationMode = pageSegmentationMode
        options.detectOnly = false
        return options
    }

    /// Submits `files` as one job and waits for its document; failed pages are gaps in it.
    public func document(on files: [URL], using client: OCRClient) async throws -> Document {
        let job = try await client.submit(files: files, options: recognitionOptions())
        return try await client.document(for: job)
    }

    /// The recognised lines of every page of `files`, one array per page in page order, each in
    /// reading order. Throws the first failed page's error (it names the file and page); use
    /// `document(on:using:)` to keep the good pages of a partly failed job.
    /// Vision: `perform(on:)` / the request's `results` after `VNImageRequestHandler.perform`.
    public func perform(on files: [URL], using client: OCRClient) async throws -> [[RecognizedTextObservation]] {
        let document = try await document(on: files, using: client)
        if let gap = document.gaps.first {
            throw gap.error ?? OCRError(.unavailable, "page \(gap.pageIndex + 1) has no result")
        }
        return document.recognizedTextObservations
    }

    /// Tesseract codes for Vision-style language tags: `en-US` -> `eng`, `zh-Hans` -> `chi_sim`;
    /// Tesseract codes and unknown tags pass through; duplicates go. Joined with '+'.
    public static func tesseractLanguages(_ languages: [String]) -> String {
        var codes: [String] = []
        for tag in languages where !tag.isEmpty {
            let lower = tag.lowercased().replacingOccurrences(of: "_", with: "-")
            let code: String
            if let script = scriptSpecific[lower] ?? scriptSpecific[lower.split(separator: "-").prefix(2).joined(separator: "-")] {
                code = script
            } else if let primary = lower.split(separator: "-").first, let mapped = iso639_1[String(primary)] {
                code = mapped
            } else {
                code = tag
            }
            if !codes.contains(code) { codes.append(code) }
        }
        return codes.joined(separator: "+")
    }

    /// The language tag (`en`, `zh-Hans`) of a Tesseract code (`eng`, `chi_sim`), for HTML's
    /// `lang`; nil for a code without one.
    static func languageTag(ofTesseractCode code: String) -> String? {
        if code == "chi_sim" { return "zh-Hans" }
        if code == "chi_tra" { return "zh-Hant" }
        return iso639_1.filter { $0.value == code }.keys.min()
    }

    private static let scriptSpecific: [String: String] = [
        "zh-hans": "chi_sim", "zh-cn": "chi_sim", "zh-sg": "chi_sim",
        "zh-hant": "chi_tra", "zh-tw": "chi_tra", "zh-hk": "chi_tra", "zh": "chi_sim",
        "sr-latn": "srp_latn", "uz-cyrl": "uzb_cyrl",
    ]
    private static let iso639_1: [String: String] = [
        "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld",
        "ru": "rus", "uk": "ukr", "ja": "jpn", "ko": "kor", "ar": "ara", "pl": "pol", "sv": "swe",
        "da": "dan", "nb": "nor", "no": "nor", "nn": "nor", "fi": "fin", "cs": "ces", "sk": "slk",
        "tr": "tur", "el": "ell", "he": "heb", "hi": "hin", "hu": "hun", "ro": "ron", "bg": "bul",
        "hr": "hrv", "sr": "srp", "sl": "slv", "th": "tha", "vi": "vie", "id": "ind", "ms": "msa",
        "ca": "cat", "et": "est", "lv": "lav", "lt": "lit", "fa": "fas", "ur": "urd", "bn": "ben",
        "ta": "tam", "te": "tel", "la": "lat", "ga": "gle", "cy": "cym", "eu": "eus", "gl": "glg",
    ]
}

/// Finds text regions without recognising them, optionally with character boxes.
///
/// Vision: `DetectTextRectanglesRequest` (Swift) / `VNDetectTextRectanglesRequest`.
public struct DetectTextRectanglesRequest: Sendable {
    /// Also report one box per character. Vision: `reportCharacterBoxes` (default false).
    public var reportCharacterBoxes: Bool
    /// Only this part of each page is searched: normalised, bottom-left origin.
    /// Vision: `regionOfInterest`.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Anything else of the wire options (deskew, page ranges...).
    public var baseOptions = RecognitionOptions()

    /// Vision: `init()` then `reportCharacterBoxes = ...`.
    public init(reportCharacterBoxes: Bool = false) {
        self.reportCharacterBoxes = reportCharacterBoxes
    }

    /// The wire options: layout analysis only (`detect_only`).
    public func recognitionOptions() throws(OCRError) -> RecognitionOptions {
        var options = baseOptions
        options.detectOnly = true
        options.reportCharacterBoxes = reportCharacterBoxes
        options.regionOfInterest = try regionOfInterest.wireRegionOfInterest()
        return options
    }

    /// The text rectangles of every page of `files`, one array per page in page order.
    /// Throws the first failed page's error. Vision: the request's `results` (`[VNTextObservation]`).
    public func perform(on files: [URL], using client: OCRClient) async throws -> [[TextRectangleObservation]] {
        let job = try await client.submit(files: files, options: recognitionOptions())
        let document = try await client.document(for: job)
        if let gap = document.gaps.first {
            throw gap.error ?? OCRError(.unavailable, "page \(gap.pageIndex + 1) has no result")
        }
        return document.textRectangleObservations(reportCharacterBoxes: reportCharacterBoxes)
    }
}

extension OCRClient {
    /// Performs `request` on `files`. Vision: `ImageRequestHandler.perform(_:)`.
    public func perform(_ request: RecognizeTextRequest, on files: [URL]) async throws -> [[RecognizedTextObservation]] {
        try await request.perform(on: files, using: self)
    }

    /// Performs `request` on `files`. Vision: `ImageRequestHandler.perform(_:)`.
    public func perform(_ request: DetectTextRectanglesRequest, on files: [URL]) async throws -> [[TextRectangleObservation]] {
        try await request.perform(on: files, using: self)
    }
}

extension Document {
    /// The text rectangles of every page, indexed by page index (empty for pages without a result).
    public func textRectangleObservations(reportCharacterBoxes: Bool = false) -> [[TextRectangleObservation]] {
        pages.map { $0.result?.textRectangleObservations(reportCharacterBoxes: reportCharacterBoxes) ?? [] }
    }
}

extension NormalizedRect {
    /// The wire's region of interest: top-left origin, `y = 1 - (y + height)`. Nil (the whole
    /// page) for the full image. Throws INVALID_ARGUMENT for an empty rectangle or one outside 0...1.
    /// Vision: the check `VNRequest.regionOfInterest` makes when performed.
    public func wireRegionOfInterest() throws(OCRError) -> Ocr_V1_NormalizedRect? {
        let tolerance = 1e-9
        guard width > 0, height > 0, minX >= -tolerance, minY >= -tolerance,
              maxX <= 1 + tolerance, maxY <= 1 + tolerance, [x, y, width, height].allSatisfy(\.isFinite) else {
            throw OCRError(.invalidArgument, "regionOfInterest \(self) is not a non-empty rectangle within the unit square")
        }
        if abs(x) < tolerance, abs(y) < tolerance, abs(width - 1) < tolerance, abs(height - 1) < tolerance { return nil }
        let clampedX = min(1, max(0, x)), clampedY = min(1, max(0, y))
        let w = min(1 - clampedX, width), h = min(1 - clampedY, height)
        return Ocr_V1_NormalizedRect.with {
            $0.x = clampedX
            $0.y = 1 - (clampedY + h)
            $0.width = w
            $0.height = h
        }
    }

    /// From the wire's top-left-origin rectangle to Vision's bottom-left origin.
    public init(wire rect: Ocr_V1_NormalizedRect) {
        self.init(x: rect.x, y: 1 - (rect.y + rect.height), width: rect.width, height: rect.height)
    }

    /// This rectangle (relative to the whole image) in the coordinates of `region`, as Vision
    /// reports boxes of a request with a region of interest: (0, 0) is the region's bottom-left
    /// corner and (1, 1) its top-right. Vision: results of a request with `regionOfInterest`.
    public func relative(to region: NormalizedRect) -> NormalizedRect {
        guard region.width > 0, region.height > 0 else { return self }
        return NormalizedRect(x: (x - region.x) / region.width, y: (y - region.y) / region.height,
                              width: width / region.width, height: height / region.height)
    }
}
