/// A failure of the ZeroMQ layer: a libzmq call that returned an error, or a misuse of this module
/// (a closed socket, a stopped loop).
///
/// `EINTR` never surfaces (calls are retried) and `EAGAIN` never surfaces either: operations that
/// can legitimately find nothing to do return `nil`/`false` instead.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct over a private enum so that codes can be added without breaking
    /// exhaustive `switch`es in callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case contextTerminated, hostUnreachable, invalidArgument, notSupported
            case addressInUse, addressNotAvailable, connectionRefused, invalidState
            case tooManySockets, messageTooLarge, messageDropped, closed, loopStopped, incompleteMessage, system
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The context was terminated (`ETERM`): close the socket, the process is shutting down.
        public static let contextTerminated = Code(.contextTerminated)
        /// A ROUTER with `ZMQ_ROUTER_MANDATORY` has no peer with that identity (`EHOSTUNREACH`).
        public static let hostUnreachable = Code(.hostUnreachable)
        /// A malformed endpoint, option value or socket type (`EINVAL`, `EFAULT`).
        public static let invalidArgument = Code(.invalidArgument)
        /// The socket type, transport or security mechanism does not support the operation
        /// (`ENOTSUP`, `EPROTONOSUPPORT`, `ENOCOMPATPROTO`).
        public static let notSupported = Code(.notSupported)
        /// `bind` to an endpoint that is already bound (`EADDRINUSE`).
        public static let addressInUse = Code(.addressInUse)
        /// `bind` to an address that is not local or an unknown interface (`EADDRNOTAVAIL`, `ENODEV`).
        public static let addressNotAvailable = Code(.addressNotAvailable)
        /// An `inproc://` connect with nobody bound, where that is an error (`ECONNREFUSED`).
        public static let connectionRefused = Code(.connectionRefused)
        /// The socket's state machine does not allow the call now (`EFSM`, e.g. REQ sending twice).
        public static let invalidState = Code(.invalidState)
        /// The context's socket limit or the process's file descriptor limit was hit (`EMFILE`).
        public static let tooManySockets = Code(.tooManySockets)
        /// A frame larger than the socket allows (`EMSGSIZE`).
        public static let messageTooLarge = Code(.messageTooLarge)
        /// A fire-and-forget `SocketLoop.send` could not queue its message (high-water mark) and
        /// dropped it.
        public static let messageDropped = Code(.messageDropped)
        /// The socket or context was closed by this process (`ENOTSOCK`, or a call after `close()`).
        public static let closed = Code(.closed)
        /// Work was submitted to a `SocketLoop` that has stopped (or never ran it).
        public static let loopStopped = Code(.loopStopped)
        /// A multipart send failed after its first frame had been queued.
        public static let incompleteMessage = Code(.incompleteMessage)
        /// Any other `errno`.
        public static let system = Code(.system)

        /// The code's name.
        public var description: String { "\(wrapped)" }
    }

    /// What went wrong.
    public var code: Code
    /// The libzmq `errno` when a C call failed, otherwise `nil`.
    public var errno: Int32?
    /// The failed operation and libzmq's `zmq_strerror` text.
    public var message: String

    /// An error with `code`, the errno behind it when there is one, and a message.
    public init(code: Code, errno: Int32? = nil, message: String) {
        self.code = code
        self.errno = errno
        self.message = message
    }

    /// `code (errno): message`.
    public var description: String {
        if let errno { return "TransportError(\(code), errno \(errno)): \(message)" }
        return "TransportError(\(code)): \(message)"
    }

    static func closed(_ operation: String) -> TransportError {
        TransportError(code: .closed, message: "\(operation): socket is closed")
    }

    static let loopStopped = TransportError(code: .loopStopped, message: "the socket loop has stopped")
}
