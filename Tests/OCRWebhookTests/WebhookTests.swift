import Foundation
import OCRBasics
import OCRTestSupport
import OCRWebhook
import Testing

/// Where webhooks may go, how they are signed, and their delivery to a real HTTP receiver
/// (Python's http.server, which checks the signature with Python's own hmac).
@Suite(.blocking) struct WebhookTests {
    @Test func theAllowListComparesParsedURLsNotStrings() throws {
        let list = try WebhookAllowList(["https://hooks.example.com/ocr/", "http://127.0.0.1:9000/"])
        for url in ["https://hooks.example.com/ocr/job", "https://HOOKS.example.com:443/ocr/a/b", "http://127.0.0.1:9000/x",
                    "https://hooks.example.com/ocr/%7Euser"] {
            #expect(list.allows(url), "\(url) should be allowed")
        }
        for url in ["https://hooks.example.com.evil.net/ocr/", "https://hooks.example.com@evil.net/ocr/", "http://hooks.example.com/ocr/",
                    "https://hooks.example.com/other", "https://hooks.example.com/ocr/../admin", "https://hooks.example.com/ocr/%2e%2e/admin",
                    "https://hooks.example.com/ocr/a%2Fb", "https://user@hooks.example.com/ocr/", "http://127.0.0.1:9001/",
                    "file:///etc/passwd", "https://hooks.example.com/ocr/a b", "https://hooks.example.com/ocr/%0a"] {
            #expect(!list.allows(url), "\(url) should be refused")
        }
        #expect(throws: WebhookError.self) { try WebhookAllowList(["ftp://example.com/"]) }
    }

    /// RFC 4231, test cases 1 and 2.
    @Test func signaturesAreHMACSHA256() {
        #expect(HMACSHA256.hex(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(HMACSHA256.hex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aWebhookIsDeliveredSignedAndAnUnreachableOneIsAbandonedAfterItsAttempts() async throws {
        let port = try freeLoopbackPort()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let receiver = Process()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ClusterTests/webhook_receiver.py").path
        receiver.arguments = ["python3", script, "\(port)", log, "s3cret"]
        try receiver.run()
        // SIGKILL: the child may inherit a mask that blocks SIGTERM from the test's thread.
        defer { kill(receiver.processIdentifier, SIGKILL); receiver.waitUntilExit() }

        let outcomes = Locked<[WebhookSender.Outcome]>([])
        var settings = WebhookSender.Settings(secret: Array("s3cret".utf8))
        settings.initialDelay = .milliseconds(50)
        settings.maxDelay = .milliseconds(100)
        settings.maxAttempts = 40  // The receiver may take a moment to listen: retried until it does.
        let sender = WebhookSender(settings) { outcome in outcomes.withLock { $0.append(outcome) } }
        defer { sender.stop() }
        sender.send(url: "http://127.0.0.1:\(port)/hooks/a", jobID: "job-1", body: Array(#"{"jobId":"job-1","state":"SUCCEEDED"}"#.utf8))
        let closed = try freeLoopbackPort()
        var unreachable = settings
        unreachable.maxAttempts = 3
        let abandoning = WebhookSender(unreachable) { outcome in outcomes.withLock { $0.append(outcome) } }
        defer { abandoning.stop() }
        abandoning.send(url: "http://127.0.0.1:\(closed)/hooks/b", jobID: "job-2", body: Array("{}".utf8))

        func settled() -> Bool {
            outcomes.withLock { list in
                list.contains { if case .delivered = $0 { true } else { false } } && list.contains { if case .abandoned = $0 { true } else { false } }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)  // Only a failing test waits this long.
        while !settled(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(settled(), "\(outcomes.withLock { $0 })")
        let all = outcomes.withLock { $0 }
        for outcome in all {
            switch outcome {
            case .delivered(let job, _, _, let status): #expect(job == "job-1" && status == 204)
            case .abandoned(let job, _, let attempts, _): #expect(job == "job-2" && attempts == 3)
            case .retrying: break
            }
        }
        let record = try #require(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        #expect(json["valid_signature"] as? Bool == true, "\(json)")
        #expect(json["job"] as? String == "job-1" && json["path"] as? String == "/hooks/a")
        #expect(json["content_type"] as? String == "application/json")
    }
}
