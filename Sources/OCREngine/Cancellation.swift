import Synchronization

/// A flag another thread sets to stop a page being recognised. Tesseract polls it between words
/// (through its monitor's cancel callback), so a cancel takes effect within a word or so.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks the page (or pages) using this token to stop. Safe from any thread.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
