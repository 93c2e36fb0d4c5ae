import Foundation
import OCRAPIJSON
import OCRBasics
import OCRCoordinator
import OCRHTTP
import OCRWire

/// HTTP responses of the REST API: JSON bodies (jobs as `JobJSON` shapes them) and errors
/// as `Status` objects with the HTTP status of their gRPC code.
enum APIJSON {
    static func response(_ status: Int, _ value: JSON, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", text: value.text + "\n", headers: headers)
    }

    /// An error as JSON with the HTTP status its gRPC code maps to.
    static func error(_ error: OCRError, httpStatus: Int? = nil, extraHeaders: [(name: String, value: String)] = []) -> HTTPResponse {
        var status = error.status
        if status.pageIndex < 0 { status.pageIndex = -1 }
        let headers: [(name: String, value: String)] = switch error.code {
        case .unauthenticated: [("WWW-Authenticate", "Bearer realm=\"ocr-cluster\"")]
        // The RPC's own hint (RPCServerCall; 5 s for the gateway's own errors), in whole seconds
        // rounded up: never "0".
        case .unavailable, .resourceExhausted:
            [("Retry-After", "\(max(1, ((Int(error.details["retry_after_ms"] ?? "") ?? 5_000) + 999) / 1000))")]
        default: []
        }
        return response(httpStatus ?? Self.httpStatus(error.code), JobJSON.status(status), headers: headers + extraHeaders)
    }

    static func error(_ code: StatusCode, _ message: String) -> HTTPResponse {
        error(OCRError(code, message))
    }

    /// The HTTP status of a gRPC code, as Google's APIs map them, except FAILED_PRECONDITION,
    /// which is 409 (the job is not in the state the request needs).
    static func httpStatus(_ code: StatusCode) -> Int {
        switch code {
        case .ok: 200
        case .cancelled: 499
        case .invalidArgument, .outOfRange: 400
        case .deadlineExceeded: 504
        case .notFound: 404
        case .alreadyExists, .aborted, .failedPrecondition: 409
        case .permissionDenied: 403
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .unauthenticated: 401
        default: 500
        }
    }
}

extension JobState {
    init?(apiName: String) {
        guard let state = JobState.all.first(where: { $0.apiName == apiName.uppercased() }) else { return nil }
        self = state
    }
}

