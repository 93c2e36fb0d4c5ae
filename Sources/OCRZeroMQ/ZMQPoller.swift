import CZeroMQ

/// The events `ZMQPoller` waits for and reports.
package struct PollEvents: OptionSet, Sendable, Hashable {
    package let rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }

    /// At least one message can be received without blocking.
    package static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
    /// At least one message can be sent without blocking.
    package static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
}

/// `zmq_poll` over a set of sockets owned by the calling thread (so, like them, not `Sendable`).
///
/// Polling is level-triggered: a socket with messages left is reported again by the next `poll`.
package final class ZMQPoller {
    private var sockets: [ZMQSocket] = []
    private var items: [zmq_pollitem_t] = []

    package init() {}

    /// The number of registered sockets.
    package var count: Int { sockets.count }

    /// Registers `socket` and returns its index (indices are assigned in registration order and
    /// shift down when an earlier socket is unregistered).
    @discardableResult
    package func register(_ socket: ZMQSocket, for events: PollEvents = .readable) -> Int {
        sockets.append(socket)
        items.append(zmq_pollitem_t(socket: nil, fd: -1, events: events.rawValue, revents: 0))
        return sockets.count - 1
    }

    /// Unregisters `socket` (no-op if it is not registered).
    package func unregister(_ socket: ZMQSocket) {
        guard let index = sockets.firstIndex(where: { $0 === socket }) else { return }
        sockets.remove(at: index)
        items.remove(at: index)
    }

    /// Unregisters every socket.
    package func removeAll() {
        sockets.removeAll()
        items.removeAll()
    }

    /// Waits until a registered socket has one of its events or `timeoutMilliseconds` elapses
    /// (-1: wait forever, 0: just look). Returns how many sockets have events (0 on timeout);
    /// read them with `events(at:)`. A signal does not shorten the wait.
    @discardableResult
    package func poll(timeoutMilliseconds: Int) throws(TransportError) -> Int {
        for index in sockets.indices {
            guard let handle = sockets[index].handle else {
                throw TransportError.closed("zmq_poll: socket \(index)")
            }
            items[index].socket = handle
            items[index].revents = 0
        }
        let deadline: ContinuousClock.Instant? = timeoutMilliseconds > 0
            ? .now + .milliseconds(timeoutMilliseconds) : nil
        let ready = try items.withUnsafeMutableBufferPointer { buffer throws(TransportError) -> Int32? in
            try zmqCall("zmq_poll") {
                var timeout = timeoutMilliseconds
                if let deadline {
                    // Retried after EINTR: wait only for what is left of the original timeout.
                    timeout = max(0, Self.milliseconds(until: deadline))
                }
                // zmq_poll: the number of items with events (0 on timeout), or -1 with ETERM (a
                // socket's context was terminated), EFAULT (bad items), EINTR (retried).
                return zmq_poll(buffer.baseAddress, Int32(buffer.count), timeout)
            }
        }
        return Int(ready ?? 0)
    }

    /// The events found on the socket at `index` by the last `poll`.
    package func events(at index: Int) -> PollEvents {
        PollEvents(rawValue: items[index].revents).intersection([.readable, .writable])
    }

    /// Milliseconds from now until `deadline`, rounded up so a timer never fires early.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int {
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        if ms.overflow { return Int(Int32.max) }
        let total = ms.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(min(total, Int64(Int32.max)))
    }
}
