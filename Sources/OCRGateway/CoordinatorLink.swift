import OCRRPC
import OCRWire
import OCRZeroMQ

/// The gateway's calls to the coordinator: the same RPCs as any client, over the coordinator's
/// in-process endpoint, each naming the principal the HTTP request authenticated as (the
/// coordinator trusts that metadata on this endpoint only).
final class CoordinatorLink: Sendable {
    private let rpc: RPCClient
    let callTimeout: Duration

    init(endpoint: String, context: ZMQContext, callTimeout: Duration = .seconds(120)) throws {
        rpc = try RPCClient(endpoint: endpoint, context: context)
        self.callTimeout = callTimeout
    }

    func close() { rpc.close() }

    func call<Request: ProtoMessage, Response: ProtoMessage>(_ method: CoordinatorMethod, _ request: Request, as principal: String,
                                                             timeout: Duration? = nil) async throws -> Response {
        let bytes = try await rpc.unary(method.rawValue, request: request.serializedBytes(), timeout: timeout ?? callTimeout,
                                        metadata: metadata(principal))
        do {
            return try Response(serializedBytes: bytes)
        } catch {
            throw OCRError(.internal, "\(method.rawValue): the response does not parse: \(error)")
        }
    }

    /// WatchJob: the job's events from `fromPage`, then live ones until JobFinished.
    func events(jobID: String, fromPage: UInt32, as principal: String) -> AsyncThrowingStream<JobEvent, any Error> {
        let request = WatchJobRequest.with { $0.jobId = jobID; $0.fromPage = fromPage }
        let raw = rpc.serverStream(CoordinatorMethod.watchJob.rawValue, request: request.serializedBytes(), idleTimeout: .seconds(60),
                                   metadata: metadata(principal))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await bytes in raw { continuation.yield(try JobEvent(serializedBytes: bytes)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func metadata(_ principal: String) -> [String: String] {
        ["principal": principal, "client": "ocr-coordinator HTTP gateway"]
    }
}
