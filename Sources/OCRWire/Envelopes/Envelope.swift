
// Envelopes: the frames of one message on a link, without the ROUTER identity (ZeroMQ
// multipart messages as byte arrays; no sockets here). The worker link's envelope lives here,
// beside the worker protocol it carries; the client link's (`RpcEnvelope`) is OCRRPC's.

/// Why frames received from a peer are not a valid envelope. Peer input is never trusted: every
/// malformed message becomes one of these (the coordinator answers it with INVALID_ARGUMENT or
/// a `Disconnect`), never a crash.
package enum EnvelopeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message has the wrong number of frames.
    case wrongFrameCount(expected: Int, actual: Int)
    /// The ROUTER identity frame is empty.
    case emptyIdentity
    /// The worker-link signature frame is not `"OCRW01"` (the first 16 bytes of what came).
    case badSignature([UInt8])
    /// A frame is not a valid protobuf message of the expected type (`frame` names it:
    /// "RpcHeader", "payload", "WorkerMessage", "CoordinatorMessage").
    case undecodable(frame: String, WireDecodingError)

    package var description: String {
        switch self {
        case let .wrongFrameCount(expected, actual): "expected \(expected) frames, got \(actual)"
        case .emptyIdentity: "empty routing identity frame"
        case let .badSignature(bytes): "bad protocol signature \(bytes) (expected \"OCRW01\")"
        case let .undecodable(frame, error): "\(frame) frame does not decode: \(error)"
        }
    }
}

/// The frames of a message on one link, without the ROUTER identity.
package protocol FrameEnvelope: Sendable, Hashable {
    /// How many frames the envelope has on the wire.
    static var frameCount: Int { get }
    /// Parses exactly `frameCount` frames.
    init(frames: ArraySlice<[UInt8]>) throws(EnvelopeError)
    /// The frames to send.
    var frames: [[UInt8]] { get }
}

extension FrameEnvelope {
    /// Parses the frames a DEALER receives (no identity frame).
    package init(frames: [[UInt8]]) throws(EnvelopeError) {
        try self.init(frames: frames[...])
    }
}

/// Worker link (DESIGN section 3, Majordomo-style): `["OCRW01"][WorkerMessage or
/// CoordinatorMessage]`.
package struct WorkerEnvelope: FrameEnvelope {
    package static let frameCount = 2
    /// The protocol signature frame, the 6 ASCII bytes `OCRW01`.
    package static let signature: [UInt8] = Array("OCRW01".utf8)
    /// The serialized `WorkerMessage` (worker -> coordinator) or `CoordinatorMessage`.
    package var body: [UInt8]

    package init(body: [UInt8]) {
        self.body = body
    }

    package init(frames: ArraySlice<[UInt8]>) throws(EnvelopeError) {
        guard frames.count == Self.frameCount else {
            throw .wrongFrameCount(expected: Self.frameCount, actual: frames.count)
        }
        let signature = frames[frames.startIndex]
        guard signature == Self.signature else { throw .badSignature(Array(signature.prefix(16))) }
        body = frames[frames.startIndex + 1]
    }

    package var frames: [[UInt8]] { [Self.signature, body] }
}

/// An envelope as a ROUTER sees it: the peer's routing identity frame, then the envelope.
/// Parse what a ROUTER receives with `init(frames:)`; reply with `frames`.
package struct Routed<Envelope: FrameEnvelope>: Sendable, Hashable {
    /// The peer's routing identity (ZeroMQ's generated id, or the peer's `routingID`).
    package var identity: [UInt8]
    package var envelope: Envelope

    package init(identity: [UInt8], envelope: Envelope) {
        self.identity = identity
        self.envelope = envelope
    }

    /// Parses `[identity]` + the envelope's frames.
    package init(frames: [[UInt8]]) throws(EnvelopeError) {
        let expected = Envelope.frameCount + 1
        guard frames.count == expected else { throw .wrongFrameCount(expected: expected, actual: frames.count) }
        guard !frames[0].isEmpty else { throw .emptyIdentity }
        identity = frames[0]
        envelope = try Envelope(frames: frames[1...])
    }

    /// `[identity]` + the envelope's frames, ready for a ROUTER to send.
    package var frames: [[UInt8]] { [identity] + envelope.frames }
}
