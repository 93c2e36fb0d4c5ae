import OCRWire

/// One recognised text line, as Vision reports text: a normalised box with a bottom-left
/// origin, a confidence and its best readings.
///
/// Vision: `VNRecognizedTextObservation` / `RecognizedTextObservation`.
public struct RecognizedTextObservation: Sendable, Equatable {
    /// The line's box, normalised 0...1 with a bottom-left origin. Vision: `boundingBox`.
    public let boundingBox: NormalizedRect
    /// 0...1. Vision: `confidence` (`VNConfidence`).
    public let confidence: Float
    /// Zero-based page index within the job (Vision has one image per request).
    public let pageIndex: Int
    /// The line as the engine sent it, with pixel boxes (top-left origin).
    public let line: TextLine
    package let imageWidth: Int
    package let imageHeight: Int

    /// Makes the observation for `line` of a `imageWidth` x `imageHeight` page.
    public init(line: TextLine, pageIndex: Int = 0, imageWidth: Int, imageHeight: Int) {
        self.line = line
        self.pageIndex = pageIndex
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.boundingBox = NormalizedRect(line.pixelBox, imageWidth: imageWidth, imageHeight: imageHeight)
        if line.confidence > 0 || line.words.isEmpty {
            self.confidence = line.confidence
        } else {
            self.confidence = line.words.map(\.confidence).reduce(0, +) / Float(line.words.count)
        }
    }

    /// Up to `maxCandidateCount` (at most 10) readings of the line, best first. The first is the
    /// engine's reading (each word's best text, joined with single spaces) with the line's
    /// confidence; the others swap words for their candidates, ranked by the sum of the chosen
    /// words' confidences, and have the line's confidence less the mean confidence they lose.
    ///
    /// Vision: `topCandidates(_:)`.
    public func topCandidates(_ maxCandidateCount: Int) -> [RecognizedText] {
        let count = min(10, max(0, maxCandidateCount))
        let words = line.words
        guard count > 0 else { return [] }
        guard !words.isEmpty else {
            return [RecognizedText(string: line.text, confidence: confidence, units: [],
                                   imageWidth: imageWidth, imageHeight: imageHeight)]
        }
        let readings = words.map(LineCandidates.readings)
        let choices = LineCandidates.bestChoices(readings, count: count)
        let bestSum = readings.reduce(Float(0)) { $0 + $1[0].confidence }
        return choices.enumerated().map { rank, choice in
            let sum = zip(readings, choice).reduce(Float(0)) { $0 + $1.0[$1.1].confidence }
            let lineConfidence = rank == 0 ? confidence : min(1, max(0, confidence - (bestSum - sum) / Float(words.count)))
            return LineCandidates.text(words: words, readings: readings, choice: choice, confidence: lineConfidence,
                                       imageWidth: imageWidth, imageHeight: imageHeight)
        }
    }
}

/// A region holding text, found without recognising it, with optional character boxes.
///
/// Vision: `VNTextObservation` / `TextObservation` (results of `VNDetectTextRectanglesRequest`).
public struct TextRectangleObservation: Sendable, Equatable {
    /// Normalised, bottom-left origin. Vision: `boundingBox`.
    public let boundingBox: NormalizedRect
    /// 0...1. Vision: `confidence`.
    public let confidence: Float
    /// One box per symbol, left to right, when requested and sent by the engine.
    /// Vision: `characterBoxes`.
    public let characterBoxes: [NormalizedRect]?
}

extension PageResult {
    /// One observation per text line, in reading order.
    /// Vision: the `results` of `VNRecognizeTextRequest` / `RecognizeTextRequest`.
    public var recognizedTextObservations: [RecognizedTextObservation] {
        blocks.flatMap(\.paragraphs).flatMap(\.lines).filter { !$0.words.isEmpty }.map {
            RecognizedTextObservation(line: $0, pageIndex: Int(pageIndex), imageWidth: Int(width), imageHeight: Int(height))
        }
    }

    /// One text rectangle per word, in reading order, with its symbols' boxes when
    /// `reportCharacterBoxes` is true. Vision: the `results` of `VNDetectTextRectanglesRequest`
    /// with `reportCharacterBoxes`.
    public func textRectangleObservations(reportCharacterBoxes: Bool = false) -> [TextRectangleObservation] {
        let w = Int(width), h = Int(height)
        return blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map { word in
            TextRectangleObservation(
                boundingBox: NormalizedRect(word.pixelBox, imageWidth: w, imageHeight: h),
                confidence: word.confidence,
                characterBoxes: reportCharacterBoxes
                    ? word.symbols.compactMap { $0.box.map { NormalizedRect(imageRect: $0, imageWidth: w, imageHeight: h) } }
                    : nil)
        }
    }
}

extension Document {
    /// The recognised lines of every page, indexed by page index (empty for pages without a
    /// result). Vision: one `VNRecognizeTextRequest`'s `results` per image.
    public var recognizedTextObservations: [[RecognizedTextObservation]] {
        pages.map { $0.result?.recognizedTextObservations ?? [] }
    }
}
