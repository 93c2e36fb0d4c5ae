/// Counts the live TCP connections of one listening socket from its monitor events (accepted
/// minus disconnected, by file descriptor), so the authenticator can refuse connections beyond a
/// maximum before they starve the process of descriptors.
///
/// Every accepted connection counts, finished handshake or not: each holds a descriptor. Those
/// that never finish it are closed by libzmq after the socket's `handshakeInterval`.
///
/// Confined to the loop it was made on: its monitor handler and every reader run there.
package final class ConnectionCounter {
    private var open: Set<UInt32> = []

    /// Connections open now.
    package var count: Int { open.count }

    /// Watches `socket` (a bound or binding server socket registered on `control`'s loop).
    package init(watching socket: ZMQSocket, name: String, control: SocketLoop.Control) throws(TransportError) {
        let endpoint = "inproc://ocr.connections.\(name).\(UInt64.random(in: 1...UInt64.max))"
        try socket.monitor(endpoint, events: [.accepted, .disconnected])
        let monitor = try control.context.makeSocket(.pair)
        try monitor.set(.linger(0))
        // The monitor's PAIR is bound by zmq_socket_monitor, so ours connects after it.
        _ = try monitor.connect(endpoint)
        _ = control.register(monitor, closeLingerMilliseconds: 0) { [weak self] _, _, frames in
            guard let self, let event = SocketEvent(frames: frames) else { return }
            if event.event == .accepted {
                self.open.insert(event.value)
            } else if event.event == .disconnected {
                self.open.remove(event.value)
            }
        }
    }
}
