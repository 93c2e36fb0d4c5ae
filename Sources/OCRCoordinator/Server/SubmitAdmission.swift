import OCRBasics
import OCRWire

/// Whether the coordinator takes a submission now, before any of its bytes are read: pure, from
/// the figures the shell has at hand. Each refusal is RESOURCE_EXHAUSTED saying which limit and
/// how far (the client may retry after `retry_after_ms`).
struct SubmitAdmission {
    /// Why the journal cannot be written, if it cannot.
    var journalTrouble: String?
    var journalBytes: UInt64 = 0
    var journalBudgetBytes: UInt64?
    var queuedPages = 0
    var maxQueuedPages = Int.max
    /// Unfinished pages of the submitting principal's jobs, and the most it may have.
    var unfinishedPagesOfPrincipal = 0
    var maxPagesPerPrincipal = Int.max
    /// Bytes of submissions waiting to be split, and the most that may wait.
    var splittingBytes = 0
    var maxSplittingBytes = Int.max

    /// nil when a submission of `bytes` is taken; the refusal otherwise.
    func refusal(forBytes bytes: Int) -> OCRError? {
        if let journalTrouble {
            return OCRError(.resourceExhausted, "the journal cannot be written (\(journalTrouble)); "
                            + "running jobs resume when it can, new ones are refused until then")
        }
        if let budget = journalBudgetBytes, journalBytes >= budget {
            return OCRError(.resourceExhausted, "the journal is at its budget (\(ByteCount.text(journalBytes)) of \(ByteCount.text(budget)), --journal-max-mb): "
                            + "running jobs finish and the oldest finished jobs are dropped; new jobs are refused until there is room",
                            details: ["journal_bytes": "\(journalBytes)", "journal_budget_bytes": "\(budget)"])
        }
        if queuedPages >= maxQueuedPages {
            return OCRError(.resourceExhausted, "queue full: \(queuedPages) pages waiting (limit \(maxQueuedPages))",
                            details: ["queued_pages": "\(queuedPages)", "max_queued_pages": "\(maxQueuedPages)"])
        }
        if unfinishedPagesOfPrincipal >= maxPagesPerPrincipal {
            return OCRError(.resourceExhausted, "quota: this client's jobs have \(unfinishedPagesOfPrincipal) pages unfinished "
                            + "(limit \(maxPagesPerPrincipal) per client)",
                            details: ["unfinished_pages": "\(unfinishedPagesOfPrincipal)", "max_pages_per_client": "\(maxPagesPerPrincipal)"])
        }
        // One submission larger than the limit is still taken when nothing else waits.
        if splittingBytes > 0, splittingBytes + bytes > maxSplittingBytes {
            return OCRError(.resourceExhausted, "\(splittingBytes) bytes of other submissions are waiting to be split "
                            + "(limit \(maxSplittingBytes)); try again shortly")
        }
        return nil
    }
}

/// The WatchJob streams each principal has open, at most `limit` each: pure bookkeeping the
/// shell consults when a stream opens and tells when it ends.
struct StreamQuota {
    let limit: Int
    private(set) var open: [String: Int] = [:]

    init(limit: Int) { self.limit = limit }

    /// Counts a new stream of `principal`, or returns why it may not open one.
    mutating func open(for principal: String) -> OCRError? {
        let count = open[principal, default: 0]
        guard count < limit else {
            return OCRError(.resourceExhausted, "this client has \(count) WatchJob streams open (limit \(limit))",
                            details: ["open_streams": "\(count)", "max_streams_per_client": "\(limit)"])
        }
        open[principal] = count + 1
        return nil
    }

    /// A stream of `principal` ended.
    mutating func close(for principal: String) {
        let left = open[principal, default: 1] - 1
        open[principal] = left > 0 ? left : nil
    }
}
