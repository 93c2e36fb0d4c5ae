import Foundation
import Glibc
import OCRBasics

/// Time limits on receiving a request, which libmicrohttpd's idle timeout cannot give: a client
/// that trickles a header one byte every two seconds is never idle, and 256 of them held every
/// connection slot (and so `/healthz`) for as long as they liked. A connection must send a
/// complete request header within `headerSeconds` of opening or of its previous response, and
/// its body within `bodySeconds` plus one second per `bodyBytesPerSecond` of declared (or
/// allowed) length. A connection past its deadline has its socket shut down from the watch
/// thread (not closed: libmicrohttpd's own thread sees the end of the stream and closes it, so
/// no descriptor is reused under it). Responses, streams among them, have no deadline here.
final class RequestDeadlines: Sendable {
    struct Limits: Sendable {
        var headerSeconds: Int
        var bodySeconds: Int
        var bodyBytesPerSecond: Int
    }

    private struct Watched {
        var fd: Int32
        var deadline: ContinuousClock.Instant?
    }

    private struct State {
        var connections: [UInt: Watched] = [:]
        var stopped = false
    }

    let limits: Limits
    private let state = Locked(State())

    init(_ limits: Limits) {
        self.limits = limits
        let thread = Thread { [self] in watch() }
        thread.name = "http-deadlines"
        thread.start()
    }

    /// A connection was accepted: its first header is due.
    func opened(_ connection: UInt, fd: Int32) {
        let due = ContinuousClock.now + .seconds(limits.headerSeconds)
        state.withLock { $0.connections[connection] = Watched(fd: fd, deadline: due) }
    }

    /// The header arrived: the body (of `length` bytes at most) is due.
    func headerArrived(_ connection: UInt, bodyLength: Int) {
        let seconds = limits.bodySeconds + bodyLength / max(1, limits.bodyBytesPerSecond)
        setDeadline(connection, ContinuousClock.now + .seconds(seconds))
    }

    /// The request is complete and its response is being sent: no deadline.
    func responding(_ connection: UInt) { setDeadline(connection, nil) }

    /// The response was sent: the next request's header is due (or the connection closes).
    func requestCompleted(_ connection: UInt) { setDeadline(connection, ContinuousClock.now + .seconds(limits.headerSeconds)) }

    func closed(_ connection: UInt) { state.withLock { _ = $0.connections.removeValue(forKey: connection) } }

    func stop() { state.withLock { $0.stopped = true } }

    private func setDeadline(_ connection: UInt, _ deadline: ContinuousClock.Instant?) {
        state.withLock { state in
            guard state.connections[connection] != nil else { return }
            state.connections[connection]!.deadline = deadline
        }
    }

    private func watch() {
        while true {
            let now = ContinuousClock.now
            let stopped = state.withLock { state -> Bool in
                for (key, watched) in state.connections {
                    guard let deadline = watched.deadline, deadline < now else { continue }
                    // Under the lock: `closed` (called before libmicrohttpd closes the socket)
                    // cannot have run, so the descriptor is still this connection's.
                    shutdown(watched.fd, Int32(SHUT_RDWR))
                    state.connections[key]!.deadline = nil
                }
                return state.stopped
            }
            if stopped { return }
            usleep(250_000)
        }
    }
}
