import CZeroMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// libzmq's own error numbers (`ZMQ_HAUSNUMERO + n` in zmq.h; the macro arithmetic is not imported).
let zmqEFSM: Int32 = 156_384_712 + 51
let zmqENOCOMPATPROTO: Int32 = 156_384_712 + 52
let zmqETERM: Int32 = 156_384_712 + 53
let zmqEMTHREAD: Int32 = 156_384_712 + 54

/// The one place where a libzmq return code becomes Swift control flow.
///
/// `body` is a libzmq call returning `-1` on failure with the reason in `zmq_errno()` (every
/// int-returning function of the API does). `EINTR` is retried (a signal arrived during a blocking
/// call), `EAGAIN` is returned as `nil` (non-blocking call with nothing to do, or a send/receive
/// timeout), any other errno is thrown as a `TransportError`. On success the call's non-negative
/// result is returned (bytes sent or received, ready poll items, ...).
@inline(__always)
func zmqCall(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(TransportError) -> Int32? {
    while true {
        let rc = body()
        if rc >= 0 { return rc }
        let err = zmq_errno()
        switch err {
        case EINTR: continue
        case EAGAIN: return nil
        default: throw transportError(errno: err, operation: operation())
        }
    }
}

/// Like `zmqCall` for calls where `EAGAIN` cannot happen (options, bind, connect, close); an
/// unexpected `EAGAIN` is reported as a `.system` error instead of being dropped.
@inline(__always)
func zmqCheck(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(TransportError) {
    guard try zmqCall(operation(), body) != nil else {
        throw transportError(errno: EAGAIN, operation: operation())
    }
}

/// Maps a libzmq errno to the error callers can switch on.
func transportError(errno err: Int32, operation: String) -> TransportError {
    let code: TransportError.Code
    switch err {
    case zmqETERM: code = .contextTerminated
    case EHOSTUNREACH: code = .hostUnreachable
    case EINVAL, EFAULT: code = .invalidArgument
    case ENOTSUP, EPROTONOSUPPORT, zmqENOCOMPATPROTO: code = .notSupported
    case EADDRINUSE: code = .addressInUse
    case EADDRNOTAVAIL, ENODEV: code = .addressNotAvailable
    case ECONNREFUSED: code = .connectionRefused
    case zmqEFSM: code = .invalidState
    case EMFILE, zmqEMTHREAD: code = .tooManySockets
    case EMSGSIZE: code = .messageTooLarge
    case ENOTSOCK: code = .closed
    default: code = .system
    }
    // zmq_strerror: never NULL, a static string for any errno (libzmq's own or strerror's).
    let text = String(cString: zmq_strerror(err))
    return TransportError(code: code, errno: err, message: "\(operation): \(text)")
}
