import Foundation
import OCRTestSupport
import OCRWire
import Testing
@testable import OCRRPC
@testable import OCRZeroMQ

@Suite("Typed envelopes over OCRWire messages")
struct TypedEnvelopeTests {
    @Test("RpcHeader and payload survive the client link's frames")
    func rpcTyped() throws {
        var header = RpcHeader()
        header.callId = 1
        header.method = "/ocr.v1.Coordinator/Health"
        header.kind = .request
        header.timeoutMs = 5000
        let envelope = RpcEnvelope(header: header)
        // PROTOCOL.md's Health example, byte for byte.
        #expect(envelope.frames == [[0x08, 0x01, 0x12, 0x1a] + Array("/ocr.v1.Coordinator/Health".utf8)
            + [0x18, 0x01, 0x28, 0x88, 0x27], []])
        let parsed = try Routed<RpcEnvelope>(frames: [[0, 1, 2, 3, 4]] + envelope.frames)
        #expect(try parsed.envelope.decodeHeader() == header)

        var status = Status()
        status.code = .unimplemented
        let reply = RpcEnvelope(header: header, payload: status)
        #expect(try reply.decodePayload(as: Status.self) == status)
    }

    @Test("undecodable frames are typed errors naming the frame", arguments: [
        ([UInt8]([0x40, 0x80]), WireDecodingError.truncated),     // field 8: truncated varint
        ([0x4A, 0x05, 0x61], .lengthOutOfBounds(field: 9)),       // field 9: length beyond the buffer
        ([0x0F], .invalidWireType(7)),                            // wire type 7
    ])
    func undecodable(bytes: [UInt8], error: WireDecodingError) {
        #expect(throws: EnvelopeError.undecodable(frame: "RpcHeader", error)) {
            try RpcEnvelope(header: bytes, payload: []).decodeHeader()
        }
        #expect(throws: EnvelopeError.undecodable(frame: "WorkerMessage", error)) {
            try WorkerEnvelope(body: bytes).decodeWorkerMessage()
        }
        #expect(throws: EnvelopeError.undecodable(frame: "CoordinatorMessage", error)) {
            try WorkerEnvelope(body: bytes).decodeCoordinatorMessage()
        }
    }

    @Test("worker link over real sockets: Ready in, Heartbeat out, garbage answered without crashing")
    func workerLink() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let rejected = Box<[EnvelopeError]>([])
        let readies = Box<[Ready]>([])
        let loop = SocketLoop(context: context, name: "test.worker-link")
        let endpoint = try loop.start { control in
            let router = try control.context.makeSocket(.router)
            try router.set(.routerMandatory(true))
            let endpoint = try router.bind("tcp://127.0.0.1:*")
            control.register(router) { control, id, frames in
                do {
                    let routed = try Routed<WorkerEnvelope>(frames: frames)
                    let message = try routed.envelope.decodeWorkerMessage()
                    guard let ready = message.ready else { return }
                    readies.with { $0.append(ready) }
                    var heartbeat = CoordinatorMessage()
                    heartbeat.command = .heartbeat(Heartbeat())
                    let reply = Routed(identity: routed.identity, envelope: WorkerEnvelope(heartbeat))
                    _ = try control.send(reply.frames, on: id)
                } catch let error as EnvelopeError {
                    rejected.with { $0.append(error) }
                    var disconnect = CoordinatorMessage()
                    disconnect.command = .disconnect(Disconnect())
                    _ = try? control.send([frames[0]] + WorkerEnvelope(disconnect).frames, on: id)
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            return endpoint
        }
        defer { loop.stop() }

        let worker = try context.makeSocket(.dealer)
        defer { worker.close() }
        try worker.connect(endpoint)

        try worker.send([Array("OCRW02".utf8), []])  // wrong version
        let answer = try WorkerEnvelope(frames: try worker.receiveOrFail()).decodeCoordinatorMessage()
        #expect(answer.disconnect != nil)

        var ready = Ready()
        ready.workerUid = 0xDEAD_BEEF
        ready.slots = 2
        ready.languages = ["eng", "deu"]
        var message = WorkerMessage()
        message.command = .ready(ready)
        try worker.send(WorkerEnvelope(message).frames)
        let reply = try WorkerEnvelope(frames: try worker.receiveOrFail()).decodeCoordinatorMessage()
        #expect(reply.heartbeat != nil)
        #expect(readies.current == [ready])
        #expect(rejected.current == [.badSignature(Array("OCRW02".utf8))])
    }
}
