import OCRTestSupport
import OCRWire
import Testing
@testable import OCRRPC

@Suite("Envelopes: frame tables")
struct EnvelopeTests {
    let signature: [UInt8] = [0x4F, 0x43, 0x52, 0x57, 0x30, 0x31]  // "OCRW01"

    @Test("client link: [header][payload], and the ROUTER's view with the identity first")
    func rpcRoundTrip() throws {
        let envelope = RpcEnvelope(header: [8, 1], payload: [10, 0])
        #expect(envelope.frames == [[8, 1], [10, 0]])
        #expect(try RpcEnvelope(frames: [[8, 1], [10, 0]]) == envelope)
        #expect(try RpcEnvelope(frames: [[8, 1], []]).payload == [])

        let routed = Routed(identity: [0, 1, 2, 3, 4], envelope: envelope)
        #expect(routed.frames == [[0, 1, 2, 3, 4], [8, 1], [10, 0]])
        #expect(try Routed<RpcEnvelope>(frames: routed.frames) == routed)
    }

    @Test("client link rejects wrong frame counts and empty identities", arguments: [
        ([[UInt8]](), EnvelopeError.wrongFrameCount(expected: 2, actual: 0)),
        ([[8, 1]], .wrongFrameCount(expected: 2, actual: 1)),
        ([[8, 1], [], []], .wrongFrameCount(expected: 2, actual: 3)),
    ])
    func rpcRejects(frames: [[UInt8]], error: EnvelopeError) {
        #expect(throws: error) { try RpcEnvelope(frames: frames) }
    }

    @Test("routed client link rejects", arguments: [
        ([[UInt8]](), EnvelopeError.wrongFrameCount(expected: 3, actual: 0)),
        ([[1], [8, 1]], .wrongFrameCount(expected: 3, actual: 2)),
        ([[], [8, 1], []], .emptyIdentity),
        ([[1], [8, 1], [], []], .wrongFrameCount(expected: 3, actual: 4)),
    ])
    func routedRpcRejects(frames: [[UInt8]], error: EnvelopeError) {
        #expect(throws: error) { try Routed<RpcEnvelope>(frames: frames) }
    }

    @Test("worker link: [\"OCRW01\"][body]")
    func workerRoundTrip() throws {
        #expect(WorkerEnvelope.signature == signature)
        let envelope = WorkerEnvelope(body: [0x12, 0x00])
        #expect(envelope.frames == [signature, [0x12, 0x00]])
        #expect(try WorkerEnvelope(frames: [signature, []]) == WorkerEnvelope(body: []))
        let routed = try Routed<WorkerEnvelope>(frames: [[9, 9], signature, [0x12, 0x00]])
        #expect(routed.identity == [9, 9] && routed.envelope == envelope)
    }

    @Test("worker link rejects bad signatures and frame counts", arguments: [
        ([[UInt8]](), EnvelopeError.wrongFrameCount(expected: 2, actual: 0)),
        ([[0x4F, 0x43, 0x52, 0x57, 0x30, 0x31]], .wrongFrameCount(expected: 2, actual: 1)),
        ([[0x4F, 0x43, 0x52, 0x57, 0x30, 0x32], []], .badSignature([0x4F, 0x43, 0x52, 0x57, 0x30, 0x32])),  // OCRW02
        ([[0x4F, 0x43, 0x52, 0x57, 0x30], []], .badSignature([0x4F, 0x43, 0x52, 0x57, 0x30])),  // truncated
        ([[], [1]], .badSignature([])),
        ([[0x4F, 0x43, 0x52, 0x57, 0x30, 0x31], [], []], .wrongFrameCount(expected: 2, actual: 3)),
    ])
    func workerRejects(frames: [[UInt8]], error: EnvelopeError) {
        #expect(throws: error) { try WorkerEnvelope(frames: frames) }
    }

    @Test("a long bad signature is reported truncated to 16 bytes")
    func longSignatureTruncated() {
        let junk = [UInt8](repeating: 0xFF, count: 1000)
        #expect(throws: EnvelopeError.badSignature(Array(repeating: 0xFF, count: 16))) {
            try WorkerEnvelope(frames: [junk, []])
        }
    }
}
