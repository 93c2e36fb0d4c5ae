import Foundation

/// Where a page of ListJobs ended: the last job it listed and when that job was accepted (so
/// the next page starts in the right place even if that job is deleted meanwhile). Carried to
/// clients as an opaque `page_token`.
package struct JobListCursor: Sendable, Equatable {
    package var jobID: String
    package var createdUnixMs: Int64

    package init(jobID: String, createdUnixMs: Int64) {
        self.jobID = jobID
        self.createdUnixMs = createdUnixMs
    }

    /// From a `page_token`; nil for "" or a token this coordinator did not write.
    package init?(token: String) {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard !token.isEmpty, let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              let dot = text.firstIndex(of: "."), let ms = Int64(text[..<dot]) else { return nil }
        self.init(jobID: String(text[text.index(after: dot)...]), createdUnixMs: ms)
    }

    /// URL-safe base64 of "createdUnixMs.jobID".
    package var token: String {
        Data("\(createdUnixMs).\(jobID)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
