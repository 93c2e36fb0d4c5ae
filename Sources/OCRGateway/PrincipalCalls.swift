import OCRClient
import OCRCoordinator
import OCRWire

/// The gateway's calls to the coordinator: an `OCRClient` on the coordinator's in-process
/// endpoint, each call naming the principal its HTTP request authenticated as (the coordinator
/// trusts that metadata on this endpoint only).
extension OCRClient {
    func call<Request: ProtoMessage, Response: ProtoMessage>(_ method: CoordinatorMethod, _ request: Request,
                                                             as principal: String) async throws -> Response {
        try await call(method, request, metadata: [CoordinatorServer.principalMetadataKey: principal])
    }

    /// WatchJob: the job's events from `fromPage`, then live ones until JobFinished.
    func events(jobID: String, fromPage: UInt32, as principal: String) -> AsyncThrowingStream<JobEvent, any Error> {
        events(forJobID: jobID, fromPage: fromPage, metadata: [CoordinatorServer.principalMetadataKey: principal])
    }
}
