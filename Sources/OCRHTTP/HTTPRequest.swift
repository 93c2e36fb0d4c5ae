/// One HTTP request as the handler sees it: the whole body already read (within the server's
/// limit), header names lower-cased.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    package var path: String
    /// Query arguments, decoded; a repeated name keeps its last value.
    package var query: [String: String]
    /// Header values by lower-cased name; a repeated header's values joined with ", ".
    package var headers: [String: String]
    package var body: [UInt8]
    /// For a `multipart/form-data` body: the parts as libmicrohttpd's post processor decoded
    /// them, in order (`body` keeps the raw bytes).
    package var formParts: [HTTPFormPart] = []
    /// A `multipart/form-data` body that does not parse (no boundary, a broken part).
    package var formUnreadable = false

    package init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of a header, by any spelling of its name.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One field or file of a form body.
package struct HTTPFormPart: Sendable {
    package var name: String
    /// The file name a file part was sent with; nil for a plain field.
    package var filename: String?
    package var contentType: String?
    package var data: [UInt8]

    package init(name: String, filename: String? = nil, contentType: String? = nil, data: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }
}
