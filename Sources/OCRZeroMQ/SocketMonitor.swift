import CZeroMQ

/// Connection events libzmq reports for a socket (`zmq_socket_monitor`), as a set to ask for.
package struct SocketEvents: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// A connection to a peer was established (TCP connected, before the ZMTP handshake).
    package static let connected = SocketEvents(rawValue: ZMQ_EVENT_CONNECTED)
    /// A listening socket accepted a connection (`value` is its file descriptor).
    package static let accepted = SocketEvents(rawValue: ZMQ_EVENT_ACCEPTED)
    /// The server refused the handshake after asking its authenticator (`value` is the ZAP
    /// status code: 400 credentials refused, 500 the server refused for its own reasons).
    package static let handshakeFailedAuth = SocketEvents(rawValue: ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
    /// The ZMTP handshake (security included) completed.
    package static let handshakeSucceeded = SocketEvents(rawValue: ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
    /// An established connection to a peer ended (the peer closed, crashed or was unreachable).
    package static let disconnected = SocketEvents(rawValue: ZMQ_EVENT_DISCONNECTED)
}

/// One event from a monitor socket: two frames, the first 6 bytes (event number as a
/// little-endian UInt16, then a UInt32 value), the second the peer's endpoint.
package struct SocketEvent: Sendable, Equatable {
    package var event: SocketEvents
    package var value: UInt32
    package var endpoint: String

    package init?(frames: [[UInt8]]) {
        guard frames.count == 2, frames[0].count == 6 else { return nil }
        let f = frames[0]
        event = SocketEvents(rawValue: Int32(UInt16(f[0]) | UInt16(f[1]) << 8))
        value = UInt32(f[2]) | UInt32(f[3]) << 8 | UInt32(f[4]) << 16 | UInt32(f[5]) << 24
        endpoint = String(decoding: frames[1], as: UTF8.self)
    }
}

extension ZMQSocket {
    /// Has libzmq publish this socket's `events` on a PAIR socket bound at `endpoint` (an
    /// `inproc://` address); connect a `.pair` socket there and read `SocketEvent`s from it. Call
    /// it on the socket's owner thread, before or after `connect`.
    package func monitor(_ endpoint: String, events: SocketEvents) throws(TransportError) {
        let socket = try openHandle("zmq_socket_monitor")
        // zmq_socket_monitor: 0, or -1 with ETERM, EPROTONOSUPPORT (not inproc), EINVAL (bad endpoint).
        try zmqCheck("zmq_socket_monitor(\(endpoint))") { zmq_socket_monitor(socket, endpoint, events.rawValue) }
    }
}
