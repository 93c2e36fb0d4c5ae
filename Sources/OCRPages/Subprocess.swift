import Foundation
import OCRWire

/// Runs a helper program (poppler's `pdfinfo`/`pdftoppm`) with a timeout. Output goes to files
/// (never pipes, so a chatty child cannot block on a full pipe); the child is killed when the
/// deadline passes. Synchronous: call it from an engine thread, not the cooperative pool.
package struct Subprocess {
    package struct Outcome {
        package var status: Int32
        package var stdout: [UInt8]
        package var stderr: String
    }

    /// Runs `executable` with `arguments`, waiting at most `timeout`.
    /// Throws `DEADLINE_EXCEEDED` on timeout and `FAILED_PRECONDITION` when it cannot start.
    package static func run(_ executable: String, _ arguments: [String], timeout: Duration, workDirectory: String) throws(OCRError) -> Outcome {
        let outPath = workDirectory + "/stdout", errPath = workDirectory + "/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so a kill reaches any grandchildren too; and no blocked signals
        // (the executables block SIGTERM/SIGINT for their sigwait thread, and a mask is inherited).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // posix_spawnp: 0 on success, else an errno value (ENOENT when the tool is not installed).
        let rc = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        guard rc == 0 else {
            throw OCRError(.failedPrecondition, "cannot run \(executable): \(strerror(rc).map { String(cString: $0) } ?? "errno \(rc)")")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var status: Int32 = 0
        while true {
            // waitpid(WNOHANG): the pid when it exited, 0 while running, -1 on error (EINTR: retry).
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r == -1 && errno != EINTR { throw OCRError(.internal, "waitpid failed for \(executable)") }
            if clock.now >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                throw OCRError(.deadlineExceeded, "\(executable) did not finish within \(timeout)")
            }
            usleep(5_000)
        }
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let out = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: outPath)))) ?? []
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Outcome(status: exitStatus, stdout: out, stderr: err)
    }
}

/// A private temporary directory, removed by `remove()` (call it in a `defer`).
package struct TemporaryDirectory {
    package let path: String

    package init() throws(OCRError) {
        var template = Array((NSTemporaryDirectory() + "/ocr-pages.XXXXXX").utf8CString)
        // mkdtemp: the path on success, NULL on failure.
        let made: String? = template.withUnsafeMutableBufferPointer { buf in
            mkdtemp(buf.baseAddress!).map { String(cString: $0) }
        }
        guard let made else { throw OCRError(.internal, "cannot create a temporary directory") }
        path = made
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
