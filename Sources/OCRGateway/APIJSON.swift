import Foundation
import OCRBasics
import OCRHTTP
import OCRWire

/// The JSON the REST API answers with (openapi.json: `Job`, `Error`, `Event`); names in
/// lowerCamelCase as in protobuf's JSON mapping and the JSON documents.
enum APIJSON {
    static func job(_ job: Job) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .string(job.jobId)),
            ("jobKey", .string(job.jobKey)),
            ("state", .string(job.state.apiName)),
            ("pageCount", .int(Int(job.pageCount))),
            ("pagesDone", .int(Int(job.pagesDone))),
            ("pagesFailed", .int(Int(job.pagesFailed))),
            ("priority", .int(Int(job.priority))),
            ("files", .array(job.files.map(JSON.string))),
            ("languages", .string(job.options?.languages ?? "")),
            ("createdAt", timestamp(job.createdUnixMs)),
            ("finishedAt", timestamp(job.finishedUnixMs)),
            ("durationSeconds", job.finishedUnixMs > 0 ? .double(Double(job.finishedUnixMs - job.createdUnixMs) / 1000) : .null),
            ("status", job.finishedUnixMs > 0 ? job.status.map(status) ?? .null : .null),
            ("links", .object([
                ("self", .string("/v1/jobs/\(job.jobId)")),
                ("events", .string("/v1/jobs/\(job.jobId)/events")),
                ("document", .string("/v1/jobs/\(job.jobId)/document")),
            ])),
        ]
        if !job.pageStates.isEmpty { members.append(("pageStates", .array(job.pageStates.map { .string($0.apiName) }))) }
        return .object(members)
    }

    static func status(_ status: Status) -> JSON {
        .object([
            ("code", .string(status.code.name)),
            ("message", .string(status.message)),
            ("file", status.file.isEmpty ? .null : .string(status.file)),
            ("pageIndex", status.pageIndex < 0 || status.file.isEmpty ? .null : .int(Int(status.pageIndex))),
            ("details", .object(status.details.keys.sorted().map { ($0, .string(status.details[$0]!)) })),
        ])
    }

    /// RFC 3339 in UTC with milliseconds; null for 0 (not yet).
    static func timestamp(_ unixMs: Int64) -> JSON {
        guard unixMs > 0 else { return .null }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .string(formatter.string(from: Date(timeIntervalSince1970: Double(unixMs) / 1000)))
    }

    static func response(_ status: Int, _ value: JSON, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", text: value.text + "\n", headers: headers)
    }

    /// An error as JSON with the HTTP status its gRPC code maps to.
    static func error(_ error: OCRError, httpStatus: Int? = nil) -> HTTPResponse {
        var status = error.status
        if status.pageIndex < 0 { status.pageIndex = -1 }
        let headers: [(name: String, value: String)] = switch error.code {
        case .unauthenticated: [("WWW-Authenticate", "Bearer realm=\"ocr-cluster\"")]
        case .unavailable, .resourceExhausted: [("Retry-After", "5")]
        default: []
        }
        return response(httpStatus ?? Self.httpStatus(error.code), Self.status(status), headers: headers)
    }

    static func error(_ code: StatusCode, _ message: String) -> HTTPResponse {
        error(OCRError(code, message))
    }

    /// The HTTP status of a gRPC code, as Google's APIs map them, except FAILED_PRECONDITION,
    /// which is 409 (the job is not in the state the request needs).
    static func httpStatus(_ code: StatusCode) -> Int {
        switch code {
        case .ok: 200
        case .cancelled: 499
        case .invalidArgument, .outOfRange: 400
        case .deadlineExceeded: 504
        case .notFound: 404
        case .alreadyExists, .aborted, .failedPrecondition: 409
        case .permissionDenied: 403
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .unauthenticated: 401
        default: 500
        }
    }
}

extension JobState {
    /// "QUEUED", "SUCCEEDED", ... (the .proto names without `JOB_STATE_`).
    var apiName: String {
        switch self {
        case .unspecified: "UNSPECIFIED"
        case .queued: "QUEUED"
        case .running: "RUNNING"
        case .succeeded: "SUCCEEDED"
        case .partial: "PARTIAL"
        case .failed: "FAILED"
        case .cancelled: "CANCELLED"
        case .expired: "EXPIRED"
        case .unrecognized(let value): "STATE_\(value)"
        }
    }

    init?(apiName: String) {
        guard let state = ([.queued, .running, .succeeded, .partial, .failed, .cancelled, .expired] as [JobState])
            .first(where: { $0.apiName == apiName.uppercased() }) else { return nil }
        self = state
    }
}

extension PageState {
    var apiName: String {
        switch self {
        case .unspecified: "UNSPECIFIED"
        case .pending: "PENDING"
        case .dispatched: "DISPATCHED"
        case .done: "DONE"
        case .failed: "FAILED"
        case .cancelled: "CANCELLED"
        case .unrecognized(let value): "STATE_\(value)"
        }
    }
}
