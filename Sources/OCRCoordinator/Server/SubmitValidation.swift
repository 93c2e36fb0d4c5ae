import OCRPages
import OCRWebhook
import OCRWire

/// Checks a SubmitJobRequest before any page is split, so a bad request costs nothing and its
/// error names the field.
enum SubmitValidation {
    /// A `callback_url` must match `--webhook-allow`: PERMISSION_DENIED naming it otherwise,
    /// FAILED_PRECONDITION when this coordinator sends no webhooks.
    static func checkCallback(_ url: String, allowedBy allowList: WebhookAllowList?) throws(OCRError) {
        guard !url.isEmpty else { return }
        guard let allowList else {
            throw OCRError(.failedPrecondition, "callback_url given, but this coordinator sends no webhooks (it has no --webhook-allow)")
        }
        guard allowList.allows(url) else {
            throw OCRError(.permissionDenied, "callback_url \(url) is not in this coordinator's --webhook-allow list", details: ["callback_url": url])
        }
    }

    /// Bounds on the strings a job carries, in UTF-8 bytes. Each is copied into the journal,
    /// every listing and (the file name) every page's result, so without a bound a 1 MiB name
    /// on a 100-page file grew the journal by 318 MB. A file name is a name, not a path: Linux
    /// allows 255 bytes.
    package enum Limits {
        package static let fileNameBytes = 1024
        package static let jobKeyBytes = 256
        package static let labelCount = 64
        package static let labelKeyBytes = 128
        package static let labelValueBytes = 1024
        package static let callbackURLBytes = 2048
        package static let fileCount = 10_000
    }

    /// INVALID_ARGUMENT naming `field` when `value` is longer than `limit` bytes.
    private static func checkLength(_ value: String, _ limit: Int, _ field: String) throws(OCRError) {
        let bytes = value.utf8.count
        guard bytes > limit else { return }
        throw OCRError(.invalidArgument, "\(field) is \(bytes) bytes; at most \(limit) are allowed",
                       details: ["field": field, "bytes": "\(bytes)", "limit": "\(limit)"])
    }

    static func validate(_ request: SubmitJobRequest) throws(OCRError) {
        guard !request.files.isEmpty else { throw OCRError(.invalidArgument, "a job needs at least one file") }
        if request.files.count > Limits.fileCount {
            throw OCRError(.invalidArgument, "a job has at most \(Limits.fileCount) files, got \(request.files.count)")
        }
        for (i, file) in request.files.enumerated() {
            if file.name.isEmpty { throw OCRError(.invalidArgument, "file #\(i + 1) has no name") }
            try checkLength(file.name, Limits.fileNameBytes, "the name of file #\(i + 1)")
            if file.content.isEmpty { throw OCRError(.invalidArgument, "empty file (0 bytes)", file: file.name) }
        }
        try checkLength(request.jobKey, Limits.jobKeyBytes, "job_key")
        try checkLength(request.callbackUrl, Limits.callbackURLBytes, "callback_url")
        if request.labels.count > Limits.labelCount {
            throw OCRError(.invalidArgument, "a job has at most \(Limits.labelCount) labels, got \(request.labels.count)")
        }
        for (key, value) in request.labels.sorted(by: { $0.key < $1.key }) {
            try checkLength(key, Limits.labelKeyBytes, "a label key")
            try checkLength(value, Limits.labelValueBytes, "label \(key)")
        }
        // The options' one check (OCRWire), the same the client and the engine make.
        try request.options?.validate()
    }

    /// Keeps the pages that `page_ranges` select (1-based page numbers across the whole job, in
    /// submission order), numbered by their place in the job. A range that starts past the last
    /// page is OUT_OF_RANGE.
    static func selectPages(_ pages: [PageDescriptor], ranges: [PageRange]) throws(OCRError) -> [PageDescriptor] {
        guard !ranges.isEmpty else { return numbered(pages) }
        var keep = [Bool](repeating: false, count: pages.count)
        for range in ranges {
            guard Int(range.first) <= pages.count else {
                throw OCRError(.outOfRange, "page range \(range.first)-\(range.last) starts after the last page (\(pages.count))")
            }
            let last = range.last == 0 ? pages.count : min(Int(range.last), pages.count)
            for n in Int(range.first)...last { keep[n - 1] = true }
        }
        return numbered(zip(pages, keep).filter(\.1).map(\.0))
    }

    private static func numbered(_ pages: [PageDescriptor]) -> [PageDescriptor] {
        var pages = pages
        for i in pages.indices { pages[i].pageIndex = i }
        return pages
    }
}
