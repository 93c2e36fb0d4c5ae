import Foundation
/// What `--coordinator` accepts: a ZeroMQ endpoint a client or worker can connect to. Checked
/// when options are parsed, so a typo is a usage error (exit 64) naming the option, not a
/// transport error when the socket connects.
package enum EndpointSyntax {
    /// nil when `text` is a connectable endpoint (`tcp://HOST:PORT`, `ipc://PATH`,
    /// `inproc://NAME`), or several separated by commas (coordinators sharing a journal); else
    /// the sentence that says why not.
    package static func problem(_ text: String, option: String) -> String? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count > 1 {
            if parts.contains(where: \.isEmpty) { return "\(option) '\(text)' has an empty endpoint between its commas" }
            return parts.lazy.compactMap { problem(single: $0, option: option) }.first
        }
        return problem(single: text, option: option)
    }

    private static func problem(single text: String, option: String) -> String? {
        let example = "tcp://HOST:PORT, e.g. tcp://127.0.0.1:5555"
        if text.hasPrefix("ipc://") || text.hasPrefix("inproc://") {
            return text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).last?.isEmpty == false
                ? nil : "\(option) '\(text)' names no path"
        }
        guard text.hasPrefix("tcp://") else { return "\(option) expects \(example), not '\(text)'" }
        let address = text.dropFirst("tcp://".count)
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (1...65_535).contains(port), colon != address.startIndex else {
            return "\(option) '\(text)' needs a host and a port 1-65535 (\(example))"
        }
        return nil
    }
}
