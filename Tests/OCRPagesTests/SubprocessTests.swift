import Foundation
import OCRPages
import Synchronization
import OCRTestSupport
import Testing

/// The helper-program runner (pdfinfo, pdftoppm).
@Suite(.blocking) struct SubprocessTests {
    /// The executables block SIGTERM and SIGINT for their sigwait thread; a helper must not
    /// inherit that, or it would ignore the signals anyone sends it.
    @Test func helpersStartWithNoSignalBlockedWhateverTheCallerBlocks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mask = Box()
        let thread = Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            sigaddset(&blocked, SIGINT)
            _ = pthread_sigmask(SIG_BLOCK, &blocked, nil)
            let outcome = try? Subprocess.run("grep", ["^SigBlk:", "/proc/self/status"], timeout: .seconds(20),
                                              workDirectory: directory.path)
            mask.value.withLock { $0 = outcome.map { String(decoding: $0.stdout, as: UTF8.self) } }
        }
        thread.start()
        let end = Date().addingTimeInterval(30)
        while mask.value.withLock({ $0 }) == nil, Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        let line = try #require(mask.value.withLock { $0 })
        #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }
}

/// The child's output, shared with the thread that ran it.
private final class Box: Sendable {
    let value = Mutex<String?>(nil)
}
