import Foundation
import OCRWire

// Engines that need no Tesseract, for tests and benchmarks (as OCRmyPDF's tests/plugins): a
// NullEngine to measure the cluster's own overhead, a SleepEngine for a fixed page time without
// CPU, and fault engines that crash, hang or fail on one page so the pipeline can be shown to
// fail cleanly. "Page N" is always the task's `page_index` (zero-based, as on the wire); fault
// engines behave like `NullEngine` on every other page.

/// Returns an empty `PageResult` for every page at once, without decoding the bytes.
package final class NullEngine: PageEngine {
    package init() {}

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        try control.checkpoint(task)
        return PageResult.with {
            $0.pageIndex = task.pageIndex
            $0.file = task.file
            $0.filePage = task.filePage
        }
    }
}

/// Takes a fixed time per page without using the CPU (a stand-in for recognition time), then
/// returns what `NullEngine` returns. Honours cancellation and the deadline while it waits.
package final class SleepEngine: PageEngine {
    package let duration: Duration

    package init(duration: Duration) {
        self.duration = duration
    }

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        try control.sleep(for: duration, task)
        return try NullEngine().recognize(task: task, control: control)
    }
}

/// Kills the whole worker process when it reaches page `page`, as a segfault or the OOM killer
/// would; the coordinator must then requeue the page and, after `max_attempts`, fail it.
package final class CrashingEngine: PageEngine {
    /// How the process dies.
    package enum Mode: String, Sendable, CaseIterable {
        /// `SIGKILL`, as the OOM killer does: no cleanup, no message, nothing flushed.
        case kill
        /// `abort()` (SIGABRT), as a failed assertion or a C library's abort does.
        case abort
        /// `exit(70)`: the process ends without telling the coordinator.
        case exit
    }

    package let page: UInt32
    package let mode: Mode

    package init(page: UInt32, mode: Mode = .kill) {
        self.page = page
        self.mode = mode
    }

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        if task.pageIndex == page {
            switch mode {
            case .kill: _ = Foundation.kill(getpid(), SIGKILL)
            case .abort: Foundation.abort()
            case .exit: Foundation.exit(70)
            }
        }
        return try NullEngine().recognize(task: task, control: control)
    }
}

/// Blocks on page `page` until it is cancelled or its deadline passes (a stuck recognition);
/// the page then reports CANCELLED or DEADLINE_EXCEEDED.
package final class HangingEngine: PageEngine {
    package let page: UInt32

    package init(page: UInt32) {
        self.page = page
    }

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        if task.pageIndex == page {
            try control.waitUntilStopped(task)
        }
        return try NullEngine().recognize(task: task, control: control)
    }
}

/// Blocks on page `page` for good, ignoring cancellation and deadlines: a recognition stuck in
/// native code that nothing can interrupt (the worker's stuck-engine handling is for this).
package final class WedgedEngine: PageEngine {
    package let page: UInt32

    package init(page: UInt32) {
        self.page = page
    }

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        if task.pageIndex == page {
            while true { Thread.sleep(forTimeInterval: 3600) }
        }
        return try NullEngine().recognize(task: task, control: control)
    }
}

/// Throws an `OCRError` with `code` on page `page`: INTERNAL (retryable: a crash-like failure)
/// or INVALID_ARGUMENT (final: garbage input that will never decode).
package final class FailingEngine: PageEngine {
    package let page: UInt32
    package let code: StatusCode

    package init(page: UInt32, code: StatusCode = .internal) {
        self.page = page
        self.code = code
    }

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        if task.pageIndex == page {
            throw OCRError(code, "FailingEngine fails page index \(page) on purpose",
                           file: task.file.isEmpty ? nil : task.file, page: Int(task.pageIndex))
        }
        return try NullEngine().recognize(task: task, control: control)
    }
}

extension PageEngineFactory {
    /// `NullEngine` on every slot.
    package static let null = PageEngineFactory(name: "null") { _ in NullEngine() }

    /// `SleepEngine` on every slot.
    package static func sleep(_ duration: Duration) -> PageEngineFactory {
        PageEngineFactory(name: "sleep:\(duration.milliseconds)") { _ in SleepEngine(duration: duration) }
    }

    /// `CrashingEngine` on every slot.
    package static func crashing(onPage page: UInt32, mode: CrashingEngine.Mode = .kill) -> PageEngineFactory {
        PageEngineFactory(name: "crash-on:\(page):\(mode.rawValue)") { _ in CrashingEngine(page: page, mode: mode) }
    }

    /// `HangingEngine` on every slot.
    package static func hanging(onPage page: UInt32) -> PageEngineFactory {
        PageEngineFactory(name: "hang-on:\(page)") { _ in HangingEngine(page: page) }
    }

    /// `WedgedEngine` on every slot.
    package static func wedged(onPage page: UInt32) -> PageEngineFactory {
        PageEngineFactory(name: "wedge-on:\(page)") { _ in WedgedEngine(page: page) }
    }

    /// `FailingEngine` on every slot.
    package static func failing(onPage page: UInt32, code: StatusCode = .internal) -> PageEngineFactory {
        PageEngineFactory(name: "fail-on:\(page):\(code.name.lowercased())") { _ in FailingEngine(page: page, code: code) }
    }

    /// Parses an `--engine` value: `null`, `sleep:MS`, `crash-on:N[:kill|abort|exit]`,
    /// `hang-on:N`, `wedge-on:N`, `fail-on:N[:internal|invalid]`. Returns `nil` for anything else (`parse(_:)`
    /// also knows `tesseract`).
    package static func builtin(_ spec: String) -> PageEngineFactory? {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func page(_ i: Int) -> UInt32? { parts.count > i ? UInt32(parts[i]) : nil }
        switch parts[0] {
        case "null" where parts.count == 1:
            return .null
        case "sleep" where parts.count == 2:
            guard let ms = UInt32(parts[1]) else { return nil }
            return .sleep(.milliseconds(ms))
        case "crash-on" where parts.count == 2 || parts.count == 3:
            guard let n = page(1) else { return nil }
            guard parts.count == 3 else { return .crashing(onPage: n) }
            guard let mode = CrashingEngine.Mode(rawValue: parts[2]) else { return nil }
            return .crashing(onPage: n, mode: mode)
        case "hang-on" where parts.count == 2:
            return page(1).map { .hanging(onPage: $0) }
        case "wedge-on" where parts.count == 2:
            return page(1).map { .wedged(onPage: $0) }
        case "fail-on" where parts.count == 2 || parts.count == 3:
            guard let n = page(1) else { return nil }
            switch parts.count == 3 ? parts[2] : "internal" {
            case "internal": return .failing(onPage: n, code: .internal)
            case "invalid": return .failing(onPage: n, code: .invalidArgument)
            default: return nil
            }
        default:
            return nil
        }
    }
}
