import Synchronization

/// Says whether a page should stop. Tesseract polls it between words (through its monitor's cancel
/// callback), so a cancel takes effect within a word or so of recognition.
package final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)
    private let poll: (@Sendable () -> Bool)?

    /// A token cancelled by ``cancel()``.
    package init() { poll = nil }

    /// A token that is also cancelled whenever `isCancelled` returns true (for example a worker's
    /// own per-page control). Called from the engine thread, often: keep it cheap.
    package init(polling isCancelled: @escaping @Sendable () -> Bool) { poll = isCancelled }

    /// Asks the page (or pages) using this token to stop. Safe from any thread.
    package func cancel() { flag.store(true, ordering: .relaxed) }

    package var isCancelled: Bool { flag.load(ordering: .relaxed) || poll?() == true }
}
