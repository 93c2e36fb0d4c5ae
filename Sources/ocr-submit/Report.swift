import Foundation
import OCRWire

/// Plain-text views for the status, jobs and cancel subcommands.
enum Report {
    static func status(_ s: ClusterStatusResponse) -> String {
        var text = String(format: "workers %d  slots %d  busy %d  queued pages %d  active jobs %d  %.2f pages/s  %llu pages done\n",
                          s.workers.count, s.totalSlots, s.busySlots, s.queueDepth, s.activeJobs, s.pagesPerSecond, s.pagesDone)
        for w in s.workers {
            let labels = w.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            let host = (w.hostname.isEmpty ? "-" : w.hostname) + (labels.isEmpty ? "" : " [\(labels)]")
            text += "  \(String(w.uid, radix: 16))  \(host)  slots \(w.slots)  busy \(w.busy)  done \(w.pagesDone)  langs \(w.languages.joined(separator: "+"))  seen \(w.lastSeenMsAgo) ms ago\n"
        }
        return text
    }

    static func jobs(_ jobs: [Job]) -> String {
        jobs.isEmpty ? "no jobs\n" : jobs.map(jobLine).joined(separator: "\n") + "\n"
    }

    static func jobLine(_ j: Job) -> String {
        "\(j.jobId)  \(j.state)  \(j.pagesDone)/\(j.pageCount) done  \(j.pagesFailed) failed  \(j.files.joined(separator: ", "))"
    }
}
