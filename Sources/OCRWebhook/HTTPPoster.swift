import CCurl

/// One libcurl easy handle, used by one thread (the webhook sender's): POSTs a body and says
/// what came back. http and https only, no redirects followed, bounded times.
final class HTTPPoster {
    private let curl: UnsafeMutableRawPointer
    private static let initialised: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The outcome of one POST: the HTTP status, or why there was none.
    enum Outcome {
        case status(Int)
        case failed(String)
    }

    init?() {
        _ = Self.initialised
        guard let handle = curl_easy_init() else { return nil }
        curl = handle
    }

    deinit { curl_easy_cleanup(curl) }

    func post(_ url: String, body: [UInt8], headers: [String], timeoutMilliseconds: Int) -> Outcome {
        curl_easy_reset(curl)
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        _ = ocr_curl_set_string(curl, CURLOPT_URL, url)
        _ = ocr_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ocr_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        _ = ocr_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = ocr_curl_set_long(curl, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        _ = ocr_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMilliseconds, 5_000))
        _ = ocr_curl_set_long(curl, CURLOPT_POST, 1)
        _ = ocr_curl_set_string(curl, CURLOPT_USERAGENT, "ocr-cluster-webhook")
        _ = ocr_curl_set_headers(curl, list)
        _ = ocr_curl_discard_body(curl)
        let code = body.withUnsafeBytes { raw in
            _ = ocr_curl_set_body(curl, raw.baseAddress, raw.count)
            return curl_easy_perform(curl)
        }
        guard code == CURLE_OK else { return .failed(String(cString: curl_easy_strerror(code))) }
        return .status(ocr_curl_response_code(curl))
    }
}
