import Foundation
import OCRWire

/// A point in normalised image coordinates: 0...1, origin at the image's BOTTOM-LEFT corner, as
/// Vision reports points. Vision: `NormalizedPoint` (Swift Vision API) / a normalised `CGPoint`.
public struct NormalizedPoint: Sendable, Hashable {
    /// 0...1 of the image width from the left.
    public var x: Double
    /// 0...1 of the image height from the bottom.
    public var y: Double

    /// A point in normalised coordinates (0...1, origin bottom-left).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A page found in a photograph: its four corners, which need not form a rectangle.
///
/// Vision: `RectangleObservation` / `VNRectangleObservation`, as
/// `VNDetectDocumentSegmentationRequest` returns it.
public struct RectangleObservation: Sendable, Equatable {
    /// Vision: `topLeft`.
    public let topLeft: NormalizedPoint
    /// Vision: `topRight`.
    public let topRight: NormalizedPoint
    /// Vision: `bottomRight`.
    public let bottomRight: NormalizedPoint
    /// Vision: `bottomLeft`.
    public let bottomLeft: NormalizedPoint
    /// The smallest rectangle holding the four corners. Vision: `boundingBox`.
    public let boundingBox: NormalizedRect
    /// Always 1: the page finder accepts a page or none. Vision: `confidence`.
    public let confidence: Float = 1

    /// From `PageResult.page_quad` (pixels, top-left origin, clockwise from the top left) of an
    /// image `imageWidth` x `imageHeight`; nil when the page had none (read as it is).
    public init?(pageQuad: [Int32], imageWidth: Int, imageHeight: Int) {
        guard pageQuad.count == 8, imageWidth > 0, imageHeight > 0 else { return nil }
        let (w, h) = (Double(imageWidth), Double(imageHeight))
        let points = stride(from: 0, to: 8, by: 2).map { NormalizedPoint(x: Double(pageQuad[$0]) / w, y: 1 - Double(pageQuad[$0 + 1]) / h) }
        (topLeft, topRight, bottomRight, bottomLeft) = (points[0], points[1], points[2], points[3])
        let xs = points.map(\.x), ys = points.map(\.y)
        boundingBox = NormalizedRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

/// Finds the page in each photographed image: the quadrilateral that recognition flattens
/// (`RecognitionOptions.page_detection`). Runs layout analysis only, so it costs a fraction of
/// recognition.
///
/// Vision: `DetectDocumentSegmentationRequest` / `VNDetectDocumentSegmentationRequest`.
public struct DetectDocumentSegmentationRequest: Sendable {
    /// Anything else of the wire options (page ranges...).
    public var baseOptions = RecognitionOptions()

    /// Vision: `init()`.
    public init() {}

    /// The wire options: layout only, with page detection on.
    public func recognitionOptions() -> RecognitionOptions {
        var options = baseOptions
        options.detectOnly = true
        options.pageDetection = .auto
        return options
    }

    /// The page of every page of `files`, in page order: nil where none was found (a scan, or a
    /// page cut off by the frame). Throws the first failed page's error. Vision: `results`.
    public func perform(on files: [URL], using client: OCRClient) async throws -> [RectangleObservation?] {
        let job = try await client.submit(files: files, options: recognitionOptions())
        let document = try await client.document(for: job)
        if let gap = document.gaps.first {
            throw gap.error ?? OCRError(.unavailable, "page \(gap.pageIndex + 1) has no result")
        }
        return document.documentSegmentationObservations()
    }
}

extension OCRClient {
    /// Performs `request` on `files`. Vision: `ImageRequestHandler.perform(_:)`.
    public func perform(_ request: DetectDocumentSegmentationRequest, on files: [URL]) async throws -> [RectangleObservation?] {
        try await request.perform(on: files, using: self)
    }
}

extension Document {
    /// The page found in each photographed page, indexed by page index (nil for pages read as
    /// they are, and pages without a result).
    public func documentSegmentationObservations() -> [RectangleObservation?] {
        pages.map { page in page.result.flatMap { RectangleObservation(pageQuad: $0.pageQuad, imageWidth: Int($0.width), imageHeight: Int($0.height)) } }
    }
}
