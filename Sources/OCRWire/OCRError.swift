/// An error with a gRPC status code and the file and page it concerns: what every layer throws
/// for a request or an input that cannot be served, and what travels on the wire as `Status`.
///
/// Startup and configuration failures (a port in use, a bad flag) are not `OCRError`s; each
/// executable reports those itself.
public struct OCRError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure (gRPC numbering); says whether a retry can help.
    public var code: Ocr_V1_StatusCode
    /// For people: what failed and why.
    public var message: String
    /// The input file the error concerns, as submitted.
    public var file: String?
    /// Zero-based page index within the job (or within the file when there is no job yet).
    public var pageIndex: Int?
    /// Machine-readable details, e.g. "installed_languages" -> "eng,osd".
    public var details: [String: String]

    /// An error with `code` and `message`, naming `file` and the zero-based `page` when known.
    public init(_ code: Ocr_V1_StatusCode, _ message: String, file: String? = nil, page: Int? = nil, details: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.file = file
        self.pageIndex = page
        self.details = details
    }

    /// The wire form. `page_index` is -1 when no page is concerned.
    public var status: Ocr_V1_Status {
        var s = Status()
        s.code = code
        s.message = message
        s.file = file ?? ""
        s.pageIndex = pageIndex.map { Int32(clamping: $0) } ?? -1
        s.details = details
        return s
    }

    /// The error a wire `Status` carries.
    public init(_ status: Ocr_V1_Status) {
        self.init(status.code, status.message,
                  file: status.file.isEmpty ? nil : status.file,
                  page: status.pageIndex < 0 ? nil : Int(status.pageIndex),
                  details: status.details)
    }

    /// `CODE: file=... page=N message` (the page 1-based).
    public var description: String {
        var where_ = ""
        if let file { where_ += " file=\(file)" }
        if let pageIndex { where_ += " page=\(pageIndex + 1)" }
        return "\(code.name):\(where_) \(message)"
    }
}

extension Ocr_V1_StatusCode {
    /// The gRPC name, e.g. "INVALID_ARGUMENT".
    public var name: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        case .unrecognized(let v): "CODE_\(v)"
        }
    }
}

extension ProtoMessage {
    /// swift-protobuf style builder: `Word.with { $0.text = "x"; $0.confidence = 0.9 }`.
    public static func with(_ populate: (inout Self) throws -> Void) rethrows -> Self {
        var m = Self()
        try populate(&m)
        return m
    }
}
