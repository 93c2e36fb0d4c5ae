import OCRBasics
import CZeroMQ
import Synchronization

/// A ZeroMQ context: the I/O threads and the `inproc://` namespace that a process's sockets share.
///
/// Thread-safe (libzmq contexts are). Termination is explicit and has one defined order:
/// stop every `SocketLoop` (which closes its sockets) and `close()` every other socket, then call
/// `terminate()`. `terminate()` makes blocking calls on any still-open socket fail with
/// `.contextTerminated` and then waits until those sockets are closed; sockets are closed with a
/// small linger, so it never waits on undeliverable messages. Each socket keeps its context alive,
/// so a context is only deinitialised (and then terminated) after all its sockets are gone.
package final class ZMQContext: @unchecked Sendable {
    // @unchecked: `handle` is immutable and libzmq contexts are thread-safe; `state` is locked.
    private let handle: UnsafeMutableRawPointer
    private let state = Locked(State.open)
    private let wakeCounter = Atomic<UInt64>(0)

    private enum State { case open, terminating, terminated }

    /// Creates a context.
    /// - Parameters:
    ///   - ioThreads: libzmq I/O threads (1 is plenty below ~1 GB/s).
    ///   - maxSockets: the most sockets the context may hold (libzmq's default is 1023).
    package init(ioThreads: Int = 1, maxSockets: Int? = nil) throws(TransportError) {
        // zmq_ctx_new: a context, or NULL with EMFILE (no file descriptors left for its mailbox).
        guard let handle = zmq_ctx_new() else {
            throw transportError(errno: zmq_errno(), operation: "zmq_ctx_new")
        }
        self.handle = handle
        do {
            // zmq_ctx_set: 0, or -1 with EINVAL (unknown option or bad value).
            try zmqCheck("zmq_ctx_set(ZMQ_IO_THREADS)") { zmq_ctx_set(handle, ZMQ_IO_THREADS, Int32(clamping: ioThreads)) }
            if let maxSockets {
                try zmqCheck("zmq_ctx_set(ZMQ_MAX_SOCKETS)") { zmq_ctx_set(handle, ZMQ_MAX_SOCKETS, Int32(clamping: maxSockets)) }
            }
        } catch {
            // zmq_ctx_term on a context without sockets: 0 (EINTR retried below in terminate()).
            _ = zmq_ctx_term(handle)
            throw error
        }
    }

    deinit {
        // Every socket retains its context, so none is left open here and this cannot block.
        terminate()
    }

    /// Creates a socket of `type` owned by the calling thread. Give it to one thread only (for
    /// example create it inside `SocketLoop.start`/`perform` and register it with the loop).
    package func makeSocket(_ type: ZMQSocket.SocketType) throws(TransportError) -> ZMQSocket {
        let result: Result<UnsafeMutableRawPointer, TransportError> = state.withLock { state in
            guard case .open = state else {
                return .failure(TransportError(code: .contextTerminated, message: "zmq_socket: context is terminated"))
            }
            // zmq_socket: a socket, or NULL with EINVAL (bad type), EFAULT (bad context),
            // EMFILE (ZMQ_MAX_SOCKETS reached), ETERM (context terminating).
            guard let socket = zmq_socket(handle, type.rawValue) else {
                return .failure(transportError(errno: zmq_errno(), operation: "zmq_socket(\(type))"))
            }
            return .success(socket)
        }
        let socket = try result.get()
        return ZMQSocket(context: self, handle: socket, type: type)
    }

    /// Terminates the context: blocking calls on its open sockets fail with `.contextTerminated`,
    /// then this waits until every socket is closed. Idempotent; later `makeSocket` calls throw.
    /// Never call it from a thread that still owns an open socket of this context (it would wait
    /// for itself).
    package func terminate() {
        let shouldTerminate = state.withLock { state in
            guard case .open = state else { return false }
            state = .terminating
            return true
        }
        guard shouldTerminate else { return }
        // zmq_ctx_term: 0, or -1 with EFAULT (bad context) or EINTR (signal; retried).
        _ = try? zmqCall("zmq_ctx_term") { zmq_ctx_term(handle) }
        state.withLock { $0 = .terminated }
    }

    /// A fresh `inproc://` endpoint name, unique within this context.
    func uniqueInprocEndpoint(_ prefix: String) -> String {
        let n = wakeCounter.wrappingAdd(1, ordering: .relaxed).newValue
        return "inproc://ocr-transport.\(prefix).\(n)"
    }
}
