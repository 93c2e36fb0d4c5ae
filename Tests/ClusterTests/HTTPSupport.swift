import Foundation
import OCRTestSupport
import Testing

/// What curl got back: the status (0 when no HTTP answer came), headers (CR removed) and body.
struct CurlReply {
    var status: Int
    var headers: String
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)")
    }
}

/// Real curl, bounded by `--max-time`, its body and headers kept in `scratch`.
struct Curl {
    let scratch: URL

    func run(_ arguments: [String], maxSeconds: Int = 60, saveTo file: URL? = nil) async throws -> CurlReply {
        let body = file ?? scratch.appendingPathComponent("body-\(UUID().uuidString)")
        let headers = scratch.appendingPathComponent("headers-\(UUID().uuidString)")
        let output = try await runAsync(["curl", "-sS", "--max-time", "\(maxSeconds)", "-o", body.path, "-D", headers.path,
                                         "-w", "%{http_code}"] + arguments)
        let headerText = (try? String(contentsOf: headers, encoding: .utf8)) ?? ""
        return CurlReply(status: Int(output.stdout) ?? 0, headers: headerText.replacingOccurrences(of: "\r", with: ""),
                         body: (try? Data(contentsOf: body)) ?? Data())
    }
}

/// A Server-Sent Events body as its messages (comments and `retry` skipped).
enum ServerSentEvents {
    struct Event {
        var id: String?
        var name: String
        var data: [String: Any]
    }

    static func parse(_ text: String) -> [Event] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var id: String?, name: String?, data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data += line.dropFirst(6) }
            }
            guard let name, let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return Event(id: id, name: name, data: object)
        }
    }
}
