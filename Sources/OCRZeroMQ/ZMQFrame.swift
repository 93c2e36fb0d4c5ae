import CZeroMQ

/// One received frame kept where libzmq put it, not copied: for large frames (uploads of
/// hundreds of megabytes) the copy into a fresh Swift array, with the page faults of its new
/// memory, took a quarter of a second or more; kept frames let that happen on the thread that
/// decodes them instead of on the socket's I/O loop.
///
/// Owns its `zmq_msg_t` and closes it on deinit. Immutable after it is made, so it may travel
/// between threads (libzmq messages are not tied to a thread, only never used at once by two).
package final class ZMQFrame: @unchecked Sendable {
    private let message: UnsafeMutablePointer<zmq_msg_t>
    /// The frame's size in bytes.
    package let count: Int

    /// Takes over the content of `source` (which is left empty, to be closed by its owner).
    init(movingFrom source: UnsafeMutablePointer<zmq_msg_t>) {
        message = .allocate(capacity: 1)
        // zmq_msg_init: always 0. zmq_msg_move: 0, or -1 with EFAULT (invalid message; not
        // possible for a message just received).
        zmq_msg_init(message)
        zmq_msg_move(message, source)
        count = zmq_msg_size(message)
    }

    deinit {
        // zmq_msg_close: 0, or -1 with EFAULT (invalid message; not possible here).
        zmq_msg_close(message)
        message.deallocate()
    }

    /// A copy of the bytes.
    package func bytes() -> [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Reads the bytes in place.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        // zmq_msg_data: the frame's bytes, valid until zmq_msg_close (in deinit).
        body(UnsafeRawBufferPointer(start: count > 0 ? zmq_msg_data(message) : nil, count: count))
    }
}
