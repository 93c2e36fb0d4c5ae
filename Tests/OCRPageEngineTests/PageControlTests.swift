import Foundation
import Synchronization
import OCRPageEngine
import OCRTestSupport
import OCRWire
import Testing

/// What an engine sees of its page's fate, and the engines that need no OCR library.
@Suite struct PageControlTests {
    static let task = PageTask.with { $0.file = "scan.tif"; $0.pageIndex = 4 }

    @Test("--engine values parse into the engines they name", arguments: [
        ("null", "null"), ("sleep:25", "sleep:25"), ("crash-on:3", "crash-on:3:kill"), ("crash-on:3:abort", "crash-on:3:abort"),
        ("crash-on:0:exit", "crash-on:0:exit"), ("hang-on:2", "hang-on:2"), ("wedge-on:5", "wedge-on:5"), ("fail-on:4", "fail-on:4:internal"),
        ("fail-on:4:invalid", "fail-on:4:invalid_argument"),
    ])
    func parses(spec: String, name: String) {
        #expect(PageEngineFactory.builtin(spec)?.name == name)
    }

    @Test("malformed --engine values are refused", arguments: [
        "", "nul", "sleep", "sleep:x", "sleep:-1", "crash-on", "crash-on:x", "crash-on:1:segv", "hang-on:", "wedge-on", "wedge-on:-1", "fail-on:1:oops", "null:1",
    ])
    func refuses(spec: String) {
        #expect(PageEngineFactory.builtin(spec) == nil)
    }

    @Test func cancellingRunsHooksOnceAndTheFirstCodeWins() {
        let control = PageControl()
        let calls = Counter()
        control.onCancel { calls.add() }
        #expect(!control.isCancelled && control.stopCode == nil)
        control.cancel(.unavailable)
        control.cancel(.cancelled)
        #expect(control.stopCode == .unavailable && calls.value == 1)
        control.onCancel { calls.add() }  // Already cancelled: at once.
        #expect(calls.value == 2)
        let error = #expect(throws: OCRError.self) { try control.checkpoint(Self.task) }
        #expect(error?.code == .unavailable && error?.file == "scan.tif" && error?.pageIndex == 4)
    }

    /// A page asleep for an hour wakes at the cancel and says CANCELLED (`finishes` records an
    /// issue, and the test fails, only if the sleep has not ended within its generous bound).
    @Test func aSleepingPageWakesWhenCancelled() {
        let control = PageControl()
        let asleep = DispatchSemaphore(value: 0)
        Thread.detachNewThread { asleep.wait(); control.cancel() }
        let outcome = Box<StatusCode?>(nil)
        finishes("an hour's sleep, cancelled") {
            asleep.signal()
            do throws(OCRError) { try control.sleep(for: .seconds(3600), Self.task) } catch { outcome.with { $0 = error.code } }
        }
        #expect(outcome.current == .cancelled)
    }

    @Test func theDeadlineIsTheSoonerOfTheTasksAndTheWorkersLimit() {
        let now = ContinuousClock.now
        let control = PageControl(deadline: now + .seconds(10), maxRunTime: .seconds(3))
        #expect(control.deadline == now + .seconds(10), "the worker's limit counts once the page begins")
        control.begin(at: now)
        #expect(control.deadline == now + .seconds(3))
        let past = PageControl(deadline: now - .seconds(1))
        #expect(past.stopCode == .deadlineExceeded && past.remaining == .zero)
        let limited = PageControl(maxRunTime: .milliseconds(1))
        limited.begin(at: now - .seconds(1))
        let error = #expect(throws: OCRError.self) { try limited.checkpoint(Self.task) }
        #expect(error?.code == .deadlineExceeded && error?.message.contains("--max-page-ms") == true)
    }
}

/// A count shared with the cancelling thread.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
