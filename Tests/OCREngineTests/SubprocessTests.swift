import Foundation
import Testing
@testable import OCREngine

/// The helper-program runner (pdfinfo, pdftoppm, pdfseparate).
@Suite struct SubprocessTests {
    /// The executables block SIGTERM and SIGINT for their sigwait thread; a helper must not
    /// inherit that, or it would ignore the signals anyone sends it.
    @Test func helpersStartWithNoSignalBlockedWhateverTheCallerBlocks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mask = Locked<String?>(nil)
        let thread = Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            sigaddset(&blocked, SIGINT)
            _ = pthread_sigmask(SIG_BLOCK, &blocked, nil)
            let outcome = try? Subprocess.run("grep", ["^SigBlk:", "/proc/self/status"], timeout: .seconds(20),
                                              workDirectory: directory.path)
            mask.set(outcome.map { String(decoding: $0.stdout, as: UTF8.self) })
        }
        thread.start()
        let end = Date().addingTimeInterval(30)
        while mask.get() == nil, Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        let line = try #require(mask.get())
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }
}

/// A value shared with the thread above.
private final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
