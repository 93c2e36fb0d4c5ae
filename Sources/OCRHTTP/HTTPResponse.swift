/// What a handler answers: a status, headers and either a whole body or a stream.
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        /// Sent chunk by chunk as `HTTPStream.next` gives them (chunked transfer encoding).
        case stream(HTTPStream)
    }

    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Body

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text body with its content type.
    package init(status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: .bytes(Array(text.utf8)))
    }
}

/// A response body produced while it is sent (Server-Sent Events, large documents). `next` runs
/// on the connection's own thread and may block until it has something: it returns the next
/// chunk (empty: nothing yet, ask again), or nil at the end. `close` runs once when the
/// response ends, also when the client went away first.
package final class HTTPStream: Sendable {
    let next: @Sendable () -> [UInt8]?
    let close: @Sendable () -> Void

    package init(next: @escaping @Sendable () -> [UInt8]?, close: @escaping @Sendable () -> Void = {}) {
        self.next = next
        self.close = close
    }
}
