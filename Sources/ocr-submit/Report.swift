import Foundation
import OCRBasics
import OCRAPIJSON
import OCRWire

/// Plain-text views for the status, jobs and cancel subcommands.
enum Report {
    /// "1 page", "3 pages".
    static func pages(_ count: Int) -> String { count == 1 ? "1 page" : "\(count) pages" }

    static func status(_ s: ClusterStatusResponse) -> String {
        var text = String(format: "workers %d  slots %d  busy %d  queued pages %d  active jobs %d  %.2f pages/s  %llu pages done\n",
                          s.workers.count, s.totalSlots, s.busySlots, s.queueDepth, s.activeJobs, s.pagesPerSecond, s.pagesDone)
        for w in s.workers {
            let labels = w.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            let host = (w.hostname.isEmpty ? "-" : w.hostname) + (labels.isEmpty ? "" : " [\(labels)]")
            text += "  \(w.uid.paddedHex)  \(host)  slots \(w.slots)  busy \(w.busy)  done \(w.pagesDone)  langs \(w.languages.joined(separator: "+"))  seen \(w.lastSeenMsAgo) ms ago\n"
        }
        return text
    }

    static func jobs(_ jobs: [Job]) -> String {
        jobs.isEmpty ? "no jobs\n" : jobs.map(jobLine).joined(separator: "\n") + "\n"
    }

    /// `job-...  SUCCEEDED  3/3 done  0 failed  created 2026-12-01 18:46:24  took 4.2 s  files`.
    static func jobLine(_ j: Job) -> String {
        let created = j.createdUnixMs > 0 ? "  created \(localTime(j.createdUnixMs))" : ""
        let duration = j.finishedUnixMs > 0 ? String(format: "  took %.1f s", Double(j.finishedUnixMs - j.createdUnixMs) / 1000)
                                            : (j.createdUnixMs > 0 ? String(format: "  running %.0f s", Date().timeIntervalSince1970 - Double(j.createdUnixMs) / 1000) : "")
        return "\(j.jobId)  \(j.state.apiName)  \(j.pagesDone)/\(j.pageCount) done  \(j.pagesFailed) failed\(created)\(duration)  \(j.files.joined(separator: ", "))"
    }

    private static func localTime(_ unixMs: Int64) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(unixMs) / 1000))
    }
}
