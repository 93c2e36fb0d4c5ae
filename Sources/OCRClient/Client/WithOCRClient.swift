/// Runs `body` with a client of the coordinator at `endpoint` and closes the client when `body`
/// returns or throws, so no connection outlives the scope:
///
/// ```swift
/// let text = try await withOCRClient(endpoint: "tcp://HOST:5555") { client in
///     let job = try await client.submit(files: [URL(fileURLWithPath: "scan.tiff")])
///     return try DocumentFormat.txt.render(try await client.document(for: job))
/// }
/// ```
///
/// Cancelling the surrounding task cancels a job `body` is waiting for (see
/// `OCRClient.document(for:detached:progress:)`).
public func withOCRClient<Result: Sendable>(
    endpoint: String, callTimeout: Duration = .seconds(60), security: CurveClientSecurity? = nil,
    _ body: (OCRClient) async throws -> Result
) async throws -> Result {
    let client = try OCRClient(endpoint: endpoint, callTimeout: callTimeout, security: security)
    defer { client.close() }
    return try await body(client)
}
