import Foundation
import OCRWire

// The wire types in Swift's terms: the protobuf messages keep proto3's conventions (UInt32
// counts, "" for none, milliseconds since 1970) because they are the protocol; these views are
// what Swift code reads. They convert and never lose a value (a count past Int.max cannot occur
// on 64-bit platforms).

extension Job {
    /// The job's id (`job_id`).
    public var id: String { jobId }
    /// The idempotency key it was submitted with; nil when it had none.
    public var key: String? { jobKey.isEmpty ? nil : jobKey }
    /// Pages in the job.
    public var totalPages: Int { Int(pageCount) }
    /// Pages recognised so far.
    public var completedPages: Int { Int(pagesDone) }
    /// Pages that failed for good.
    public var failedPages: Int { Int(pagesFailed) }
    /// When the coordinator accepted it; nil when not known (a job value made by `submit`).
    public var createdAt: Date? { Self.date(createdUnixMs) }
    /// When it finished; nil while it runs.
    public var finishedAt: Date? { Self.date(finishedUnixMs) }
    /// Why it did not succeed (failed, cancelled, deadline exceeded); nil while it runs and when
    /// it succeeded.
    public var failure: OCRError? {
        guard let status, status.code != .ok else { return nil }
        return OCRError(status)
    }

    private static func date(_ unixMs: Int64) -> Date? {
        unixMs > 0 ? Date(timeIntervalSince1970: Double(unixMs) / 1000) : nil
    }
}

extension ClusterStatusResponse {
    /// Engine threads across the connected workers.
    public var slotCount: Int { Int(totalSlots) }
    /// Engine threads recognising a page now.
    public var busySlotCount: Int { Int(busySlots) }
    /// Pages waiting for a slot.
    public var queuedPages: Int { Int(queueDepth) }
    /// Jobs not yet finished.
    public var unfinishedJobs: Int { Int(activeJobs) }
    /// Pages recognised since the coordinator started.
    public var completedPages: Int { Int(clamping: pagesDone) }
    /// How long the coordinator has been up.
    public var uptime: Duration { .milliseconds(Int64(clamping: uptimeMs)) }
}

extension WorkerInfo {
    /// Engine threads of this worker.
    public var slotCount: Int { Int(slots) }
    /// Of them, those recognising a page now.
    public var busySlotCount: Int { Int(busy) }
    /// Pages it has recognised since it connected.
    public var completedPages: Int { Int(clamping: pagesDone) }
    /// How long ago the coordinator last heard from it.
    public var lastSeen: Duration { .milliseconds(lastSeenMsAgo) }
}
