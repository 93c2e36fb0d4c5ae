import Foundation
import Synchronization

/// A one-line progress bar on stderr: `[#####.....] 12/40 pages  1.8 pages/s  ETA 16s`.
///
/// It draws only when stderr is a terminal, so piped or logged runs stay quiet. Redraws are
/// rate-limited to 10 per second.
/// Safe to call from any thread (progress callbacks come from the client's threads): updates are
/// serialised, and a redraw never interleaves with another.
package final class ProgressBar: Sendable {
    private let enabled: Bool
    private let width: Int
    private let start = ContinuousClock.now
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drewSomething = false
        var stopped = false
    }
    private let state = Mutex(State())

    package init(enabled: Bool = isatty(STDERR_FILENO) == 1, width: Int = 30) {
        self.enabled = enabled
        self.width = width
    }

    /// The text of the bar for `done` of `total` pages; separated from drawing so it can be tested.
    package static func render(done: Int, failed: Int, total: Int, running: Int = 0, elapsed: Duration, width: Int = 30) -> String {
        let fraction = total > 0 ? Double(done + failed) / Double(total) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: max(0, width - filled))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done + failed) / seconds : 0
        var text = "[\(bar)] \(done + failed)/\(total) \(total == 1 ? "page" : "pages")"
        if failed > 0 { text += " (\(failed) failed)" }
        // Before the first page is done, say what is happening rather than show nothing.
        let waiting = total - done - failed
        if waiting > 0, done + failed == 0 { text += running > 0 ? ", \(running) running" : ", queued" }
        text += String(format: "  %.2f pages/s", rate)
        if rate > 0, done + failed < total {
            text += "  ETA \(Int((Double(total - done - failed) / rate).rounded(.up)))s"
        }
        return text
    }

    /// Redraws for `done` and `failed` of `total` pages (at most 10 times a second, and always
    /// for the last page).
    package func update(done: Int, failed: Int, total: Int, running: Int = 0) {
        guard enabled else { return }
        state.withLock { state in
            guard !state.stopped else { return }
            let now = ContinuousClock.now
            if let lastDraw = state.lastDraw, now - lastDraw < .milliseconds(100), done + failed < total { return }
            state.lastDraw = now
            state.drewSomething = true
            draw(Self.render(done: done, failed: failed, total: total, running: running, elapsed: now - start, width: width))
        }
    }

    /// Clears the line and draws nothing more (an interrupt's message must be the last line).
    package func stop() {
        guard enabled else { return }
        state.withLock { state in
            if state.drewSomething, !state.stopped { draw("") }
            state.stopped = true
        }
    }

    /// Clears the line so the document or a summary prints cleanly.
    package func finish() {
        guard enabled else { return }
        state.withLock { state in
            guard state.drewSomething else { return }
            draw("")
        }
    }

    private func draw(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }
}
