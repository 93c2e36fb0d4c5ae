import OCRWire

/// A recognised job as one document: its pages in order, whatever order their results arrived in.
///
/// Pages that failed for good are kept as gaps with the `Status` that ended them, so a `PARTIAL`
/// job still renders every good page and says which pages are missing. Pages the document has
/// heard nothing about (a cancelled or still-running job) are gaps too, without a status.
///
/// ```swift
/// var document = Document(pageCount: Int(submitted.pageCount))
/// for try await event in events { document.apply(event) }
/// let hocr = try DocumentFormat.hocr.render(document)
/// ```
public struct Document: Sendable {
    /// One page of the document.
    public enum Page: Sendable, Equatable {
        /// The page was recognised.
        case recognized(PageResult)
        /// The page failed for good (after its attempts, or with a non-retryable status).
        case failed(pageIndex: Int, error: OCRError)
        /// Nothing was received for the page (cancelled, expired, or not finished yet).
        case missing(pageIndex: Int)

        /// Zero-based page index within the job.
        public var pageIndex: Int {
            switch self {
            case .recognized(let result): Int(result.pageIndex)
            case .failed(let index, _), .missing(let index): index
            }
        }

        /// The result when the page was recognised.
        public var result: PageResult? {
            if case .recognized(let result) = self { return result }
            return nil
        }

        /// Why the page is absent: its failure, or nil when it was recognised or never heard of.
        public var error: OCRError? {
            if case .failed(_, let error) = self { return error }
            return nil
        }
    }

    /// Language codes the job was recognised with (`["eng", "deu"]`); written into hOCR metadata.
    public var languages: [String]
    /// Name written as the producing software in hOCR and ALTO.
    public var software: String

    private var declaredPageCount: Int
    private var results: [Int: PageResult] = [:]
    private var failures: [Int: OCRError] = [:]
    /// The file and 1-based page of each failed page, when its failure said (for the PDF).
    private(set) var failureOrigins: [Int: (file: String, filePage: Int)] = [:]

    /// An empty document expecting `pageCount` pages (the `page_count` of `SubmitJobResponse`).
    /// With 0 the page count grows with the highest page index seen.
    public init(pageCount: Int = 0, languages: [String] = [], software: String = "ocr-cluster") {
        self.declaredPageCount = max(0, pageCount)
        self.languages = languages
        self.software = software
    }

    /// A document made of `results` and `failures`, in any order.
    public init(results: [PageResult], failures: [PageFailed] = [], pageCount: Int = 0,
                languages: [String] = [], software: String = "ocr-cluster") {
        self.init(pageCount: pageCount, languages: languages, software: software)
        for result in results { add(result) }
        for failure in failures { add(failure) }
    }

    /// The one-page document of page `index` (0-based), its page numbered 0 (the REST API's
    /// `?page=N`).
    package func onlyPage(_ index: Int) -> Document {
        var one = Document(pageCount: 1, languages: languages, software: software)
        if var result = results[index] {
            result.pageIndex = 0
            one.add(result)
        } else if let error = failures[index] {
            one.failures[0] = error
            one.failureOrigins[0] = failureOrigins[index]
        }
        return one
    }

    /// Records a page result. Results are idempotent: the first result for a page index is kept
    /// (a re-attached watcher may see a page twice), and a result replaces an earlier failure.
    public mutating func add(_ result: PageResult) {
        let index = Int(result.pageIndex)
        guard results[index] == nil else { return }
        results[index] = result
        failures[index] = nil
        failureOrigins[index] = nil
    }

    /// Records a page that failed for good. Ignored when the page already has a result.
    public mutating func add(_ failure: PageFailed) {
        let index = Int(failure.pageIndex)
        var error = failure.status.map { OCRError($0) } ?? OCRError(.unknown, "page failed without a status")
        if error.file == nil, !failure.file.isEmpty { error.file = failure.file }
        error.pageIndex = index
        addFailure(pageIndex: index, error: error)
        if failures[index] != nil, !failure.file.isEmpty, failure.filePage > 0 {
            failureOrigins[index] = (failure.file, Int(failure.filePage))
        }
    }

    /// Records a page that failed for good with `error`. Ignored when the page already has a result.
    public mutating func addFailure(pageIndex: Int, error: OCRError) {
        guard pageIndex >= 0, results[pageIndex] == nil, failures[pageIndex] == nil else { return }
        failures[pageIndex] = error
    }

    /// Applies a `WatchJob` event: completed and failed pages are recorded; progress and the
    /// final event change nothing (the final event's page count is taken when present).
    public mutating func apply(_ event: JobEvent) {
        switch event.event {
        case .pageCompleted(let completed)?:
            if let result = completed.result { add(result) }
        case .pageFailed(let failed)?:
            add(failed)
        case .progress, .finished, nil:
            break
        }
    }

    /// Number of pages: the declared count, or more if a higher page index arrived.
    public var pageCount: Int {
        let highest = max(results.keys.max() ?? -1, failures.keys.max() ?? -1)
        return max(declaredPageCount, highest + 1)
    }

    /// Every page from index 0 to `pageCount - 1`, in order.
    public var pages: [Page] {
        (0..<pageCount).map { index in
            if let result = results[index] { return .recognized(result) }
            if let error = failures[index] { return .failed(pageIndex: index, error: error) }
            return .missing(pageIndex: index)
        }
    }

    /// The recognised pages, in page order.
    public var recognizedPages: [PageResult] {
        results.keys.sorted().compactMap { results[$0] }
    }

    /// The pages that are not recognised (failed or missing), in page order.
    public var gaps: [Page] {
        pages.filter { $0.result == nil }
    }

    /// True when every page has a result.
    public var isComplete: Bool {
        results.count == pageCount
    }

    /// The page at `pageIndex`, or nil when it is beyond `pageCount`.
    public subscript(pageIndex: Int) -> Page? {
        guard pageIndex >= 0, pageIndex < pageCount else { return nil }
        if let result = results[pageIndex] { return .recognized(result) }
        if let error = failures[pageIndex] { return .failed(pageIndex: pageIndex, error: error) }
        return .missing(pageIndex: pageIndex)
    }
}
