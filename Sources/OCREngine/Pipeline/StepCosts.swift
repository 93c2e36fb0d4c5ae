import OCRPageModel
import Foundation
import OCRWire

/// What each step of a page's pipeline cost, in the order the steps ran (`Timings.steps`).
///
/// Measured in CPU time of the calling thread, not wall-clock time: an engine thread does all
/// of a page's work itself (OpenMP is limited to it), so a step costs the same on a busy machine
/// as on an idle one, and the costs add up to the page's work.
struct StepCosts {
    private(set) var steps: [StepCost] = []

    /// Runs `body` as the step `name` and records its CPU time, also when it throws.
    mutating func measure<T>(_ name: String, _ body: () throws(OCRError) -> T) throws(OCRError) -> T {
        let start = Self.threadCPUMicroseconds()
        defer { record(name, Self.threadCPUMicroseconds() - start) }
        return try body()
    }

    /// Adds `microseconds` to the step `name` (a step that ran more than once is listed once).
    mutating func record(_ name: String, _ microseconds: UInt64) {
        if let i = steps.firstIndex(where: { $0.step == name }) {
            steps[i].cpuUs += microseconds
        } else {
            steps.append(StepCost.with { $0.step = name; $0.cpuUs = microseconds })
        }
    }

    /// This thread's CPU time so far (user and system), in microseconds.
    static func threadCPUMicroseconds() -> UInt64 {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return 0 }
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
