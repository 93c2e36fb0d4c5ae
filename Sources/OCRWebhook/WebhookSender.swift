import Foundation
import OCRBasics

/// Delivers webhooks on threads of its own (never the coordinator's I/O loop): each body is
/// POSTed with `Content-Type: application/json`, `X-OCR-Signature: sha256=HEX` (HMAC-SHA256 of
/// the exact body under the secret), `X-OCR-Delivery` (one id per webhook, the same on every
/// retry, for receivers to drop duplicates) and `X-OCR-Job`. A 2xx answer ends it; anything
/// else (no connection, a timeout, another status) is retried after 1 s, 2 s, 4 s ... at most
/// `maxDelay` apart, `maxAttempts` times in all, then given up and reported.
package final class WebhookSender: Sendable {
    /// What became of a webhook, for logs and metrics.
    package enum Outcome: Sendable {
        case delivered(jobID: String, url: String, attempts: Int, status: Int)
        case retrying(jobID: String, url: String, attempt: Int, reason: String, after: Duration)
        case abandoned(jobID: String, url: String, attempts: Int, reason: String)
    }

    package struct Settings: Sendable {
        package var secret: [UInt8]
        package var maxAttempts = 10
        package var initialDelay: Duration = .seconds(1)
        package var maxDelay: Duration = .seconds(120)
        package var timeout: Duration = .seconds(10)
        /// Webhooks delivered at once (each thread has its own connection).
        package var threads = 4
        /// Webhooks waiting beyond which new ones are dropped (and reported abandoned).
        package var maxQueued = 10_000

        package init(secret: [UInt8]) { self.secret = secret }
    }

    private struct Delivery: Sendable {
        var id: String
        var jobID: String
        var url: String
        var body: [UInt8]
        var attempts = 0
        var due: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var waiting: [Delivery] = []
        var stopping = false
        var running = 0
    }

    private let settings: Settings
    private let report: @Sendable (Outcome) -> Void
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    package init(_ settings: Settings, report: @escaping @Sendable (Outcome) -> Void) {
        self.settings = settings
        self.report = report
        for i in 0..<max(1, settings.threads) {
            let thread = Thread { [self] in serve() }
            thread.name = "ocr.webhook.\(i)"
            thread.start()
        }
        state.withLock { $0.running = max(1, settings.threads) }
    }

    /// Queues a webhook for `url` with `body`; returns at once.
    package func send(url: String, jobID: String, body: [UInt8]) {
        let delivery = Delivery(id: UUID().uuidString.lowercased(), jobID: jobID, url: url, body: body, due: .now)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping, state.waiting.count < settings.maxQueued else { return false }
            state.waiting.append(delivery)
            return true
        }
        if accepted {
            wake.signal()
        } else {
            report(.abandoned(jobID: jobID, url: url, attempts: 0, reason: "\(settings.maxQueued) webhooks are waiting already"))
        }
    }

    /// Webhooks not yet delivered or given up.
    package var pending: Int { state.withLock { $0.waiting.count } }

    /// Stops the threads after the POSTs in progress; what waits is dropped. Idempotent.
    package func stop() {
        let threads = state.withLock { state -> Int in
            guard !state.stopping else { return 0 }
            state.stopping = true
            return state.running
        }
        for _ in 0..<threads { wake.signal() }
        for _ in 0..<threads { _ = finished.wait(timeout: .now() + .seconds(15)) }
    }

    private func serve() {
        defer { finished.signal() }
        guard let poster = HTTPPoster() else {
            report(.abandoned(jobID: "", url: "", attempts: 0, reason: "libcurl could not make a handle"))
            return
        }
        while true {
            enum Next { case stop, wait(Duration?), deliver(Delivery) }
            let next = state.withLock { state -> Next in
                if state.stopping { return .stop }
                let now = ContinuousClock.now
                guard let index = state.waiting.indices.min(by: { state.waiting[$0].due < state.waiting[$1].due }) else { return .wait(nil) }
                if state.waiting[index].due > now { return .wait(state.waiting[index].due - now) }
                return .deliver(state.waiting.remove(at: index))
            }
            switch next {
            case .stop:
                return
            case .wait(let delay):
                if let delay {
                    _ = wake.wait(timeout: .now() + .microseconds(Int(max(1_000, delay.microseconds))))
                } else {
                    wake.wait()
                }
            case .deliver(var delivery):
                delivery.attempts += 1
                let reason: String
                switch poster.post(delivery.url, body: delivery.body, headers: headers(delivery),
                                   timeoutMilliseconds: Int(settings.timeout.milliseconds)) {
                case .status(let status) where (200..<300).contains(status):
                    report(.delivered(jobID: delivery.jobID, url: delivery.url, attempts: delivery.attempts, status: status))
                    continue
                case .status(let status): reason = "HTTP \(status)"
                case .failed(let why): reason = why
                }
                guard delivery.attempts < settings.maxAttempts else {
                    report(.abandoned(jobID: delivery.jobID, url: delivery.url, attempts: delivery.attempts, reason: reason))
                    continue
                }
                let delay = retryDelay(afterAttempts: delivery.attempts)
                delivery.due = .now + delay
                report(.retrying(jobID: delivery.jobID, url: delivery.url, attempt: delivery.attempts, reason: reason, after: delay))
                let requeued = state.withLock { state -> Bool in
                    guard !state.stopping else { return false }
                    state.waiting.append(delivery)
                    return true
                }
                if requeued { wake.signal() }
            }
        }
    }

    /// initialDelay x 2^(attempts-1), at most maxDelay.
    func retryDelay(afterAttempts attempts: Int) -> Duration {
        var delay = settings.initialDelay
        for _ in 1..<max(1, min(attempts, 30)) where delay < settings.maxDelay { delay *= 2 }
        return min(delay, settings.maxDelay)
    }

    private func headers(_ delivery: Delivery) -> [String] {
        ["Content-Type: application/json",
         "X-OCR-Signature: sha256=" + HMACSHA256.hex(key: settings.secret, message: delivery.body),
         "X-OCR-Delivery: " + delivery.id,
         "X-OCR-Job: " + delivery.jobID,
         "Expect:"]  // no 100-continue round trip for small bodies
    }
}
