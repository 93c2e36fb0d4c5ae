import Foundation
import OCREngine
import OCRPages
import OCRRPC
import OCRWire

/// What each harness does with one input. A target must never crash, hang or grow without
/// bound on any bytes: every decoder here faces peers and uploads. Where a property can be
/// checked (a decoded message re-encodes to bytes that decode and re-encode to the same bytes),
/// a violation traps.
enum FuzzTarget: String, CaseIterable {
    /// Every protobuf message the coordinator or a worker decodes from a peer, and the envelopes.
    case wire
    /// Format sniffing and TIFF splitting: the directory walk at submission, then cutting pages.
    case tiff
    /// PDF page counting and cutting (qpdf, in process).
    case pdf
    /// Image decoding on a worker (Leptonica, after the header's pixel check).
    case image

    func run(_ data: [UInt8]) {
        switch self {
        case .wire: Self.wire(data)
        case .tiff: Self.tiff(data)
        case .pdf: Self.pdf(data)
        case .image: Self.image(data)
        }
    }

    private static func roundTrip<M: ProtoMessage>(_ type: M.Type, _ data: [UInt8]) {
        guard let message = try? M(serializedBytes: data) else { return }
        // Compared as bytes, not with ==: a float field may hold a NaN, which is not equal to itself.
        let again = message.serializedBytes()
        guard let decoded = try? M(serializedBytes: again), decoded.serializedBytes() == again else {
            fatalError("\(M.self): a decoded message does not re-encode to bytes that decode to the same message")
        }
    }

    private static func wire(_ data: [UInt8]) {
        roundTrip(SubmitJobRequest.self, data)
        roundTrip(WorkerMessage.self, data)
        roundTrip(CoordinatorMessage.self, data)
        roundTrip(RpcHeader.self, data)
        roundTrip(JobEvent.self, data)
        roundTrip(PageResult.self, data)
        roundTrip(WatchJobRequest.self, data)
        roundTrip(ListJobsResponse.self, data)
        roundTrip(ClusterStatusResponse.self, data)
        // Envelopes: the bytes cut into frames at every 0xFF byte.
        let frames = data.split(separator: 0xFF, omittingEmptySubsequences: false).map(Array.init)
        _ = try? Routed<WorkerEnvelope>(frames: frames)
        _ = try? Routed<RpcEnvelope>(frames: frames)
    }

    private static func tiff(_ data: [UInt8]) {
        _ = ImageFormat.sniff(data)
        guard let pages = try? PageSplitter().pages(file: "fuzz.tif", content: data, format: .tiff) else { return }
        for page in pages.prefix(4) { _ = try? page.cutOut() }
    }

    private static func pdf(_ data: [UInt8]) {
        guard let pages = try? PageSplitter().pages(file: "fuzz.pdf", content: data, format: .pdf) else { return }
        for page in [pages.first, pages.last].compactMap({ $0 }) { _ = try? page.cutOut() }
    }

    private static func image(_ data: [UInt8]) {
        guard let format = ImageFormat.sniff(data), format != .pdf else { return }
        var options = RecognitionOptions()
        options.maxPagePixels = 4_000_000  // what a worker with a small ceiling allows
        _ = try? PageDecoder().decode(PageDescriptor(file: "fuzz", content: data, format: format), options: options)
    }
}
