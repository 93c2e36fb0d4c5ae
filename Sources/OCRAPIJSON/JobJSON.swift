import Foundation
import OCRBasics
import OCRWire

/// A job as JSON, one shape for the HTTP API (`GET /v1/jobs/{id}`, openapi.json `Job`) and
/// for webhooks: lowerCamelCase names as in protobuf's JSON mapping and the JSON documents,
/// times in RFC 3339 UTC.
package enum JobJSON {
    /// ClusterStatus: workers, slots, queue and throughput (`GET /v1/cluster`, `ocr-submit
    /// status --json`), as object members so callers can add their own.
    package static func cluster(_ status: ClusterStatusResponse) -> [(String, JSON)] {
        [
            ("workers", .array(status.workers.map { worker in
                .object([
                    ("uid", .string(worker.uid.paddedHex)), ("host", .string(worker.hostname)),
                    ("slots", .int(Int(worker.slots))), ("busy", .int(Int(min(worker.busy, worker.slots)))),
                    ("held", .int(Int(worker.busy))),
                    ("languages", .array(worker.languages.map(JSON.string))),
                    ("engines", .array(worker.engines.map(JSON.string))), ("version", .string(worker.version)),
                    ("pagesDone", .int(Int(worker.pagesDone))), ("lastSeenMsAgo", .int(Int(worker.lastSeenMsAgo))),
                    ("labels", .object(worker.labels.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })),
                ])
            })),
            ("totalSlots", .int(Int(status.totalSlots))), ("busySlots", .int(Int(status.busySlots))),
            ("queueDepth", .int(Int(status.queueDepth))), ("activeJobs", .int(Int(status.activeJobs))),
            ("pagesPerSecond", .double(status.pagesPerSecond)), ("pagesDone", .int(Int(status.pagesDone))),
            ("uptimeSeconds", .double(Double(status.uptimeMs) / 1000)),
        ]
    }

    package static func job(_ job: Job) -> JSON {
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

    package static func status(_ status: Status) -> JSON {
        .object([
            ("code", .string(status.code.name)),
            ("message", .string(status.message)),
            ("file", status.file.isEmpty ? .null : .string(status.file)),
            ("pageIndex", status.pageIndex < 0 || status.file.isEmpty ? .null : .int(Int(status.pageIndex))),
            ("details", .object(status.details.keys.sorted().map { ($0, .string(status.details[$0]!)) })),
        ])
    }

    /// RFC 3339 in UTC with milliseconds; null for 0 (not yet).
    package static func timestamp(_ unixMs: Int64) -> JSON {
        guard unixMs > 0 else { return .null }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .string(formatter.string(from: Date(timeIntervalSince1970: Double(unixMs) / 1000)))
    }
}

extension JobState {
    /// "QUEUED", "SUCCEEDED", ... (the .proto names without `JOB_STATE_`).
    package var apiName: String {
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
}

extension PageState {
    package var apiName: String {
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
