// What ends a leading coordinator's term, handed from the signal and journal threads to main.
import Foundation
import OCRBasics

/// A signal to stop, or the journal saying another coordinator leads.
enum LeadershipEvent: Sendable {
    case signal(Int32)
    case deposed(String)
}

/// A queue of `LeadershipEvent`s that `main` waits on.
final class LeadershipEvents: Sendable {
    private let queue = Locked<[LeadershipEvent]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let stop = Locked(false)

    /// Whether a stop signal came (a standby gives up waiting for the leadership).
    var signalled: Bool { stop.withLock { $0 } }

    func post(_ event: LeadershipEvent) {
        if case .signal = event { stop.withLock { $0 = true } }
        queue.withLock { $0.append(event) }
        ready.signal()
    }

    /// The next event, waiting for one.
    func next() -> LeadershipEvent {
        while true {
            ready.wait()
            if let event = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
        }
    }
}

/// How a coordinator names itself in the leader row: host, process and client endpoint.
enum LeaderHolder {
    static func describe(clientEndpoint: String) -> String {
        "\(ProcessInfo.processInfo.hostName) pid \(getpid()) clients \(clientEndpoint)"
    }
}
