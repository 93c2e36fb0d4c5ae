import Foundation
import Synchronization

/// Severity of a log line, lowest first.
package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, warning, error

    package init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }

    package var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where formatted log lines go. Tests use `InMemoryLogSink`; processes use `StandardErrorLogSink`.
package protocol LogSink: Sendable {
    func write(_ line: String)
}

/// A structured logger that writes `key=value` lines: `ts=... level=info component=worker msg="ready" slots=2`.
///
/// Libraries take a `Logger` as a parameter (no global logger), so tests can capture what a
/// component logs and executables decide where it goes and at which level.
package struct Logger: Sendable {
    package var level: LogLevel
    package var component: String
    let sink: any LogSink

    package init(component: String, level: LogLevel = .info, sink: any LogSink = StandardErrorLogSink()) {
        self.component = component
        self.level = level
        self.sink = sink
    }

    /// The same sink and level for a sub-component.
    package func named(_ component: String) -> Logger {
        var l = self
        l.component = component
        return l
    }

    /// A logger that drops everything.
    package static let disabled = Logger(component: "", level: .error, sink: DiscardLogSink())

    package func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Any> = [:]) {
        guard level >= self.level, !(sink is DiscardLogSink) else { return }
        var line = "ts=\(Self.timestamp()) level=\(level.name) component=\(component) msg=\(Self.quote(message()))"
        for (key, value) in fields {
            line += " \(key)=\(Self.quote(String(describing: value)))"
        }
        sink.write(line)
    }

    package func trace(_ m: @autoclosure () -> String, _ f: KeyValuePairs<String, Any> = [:]) { log(.trace, m(), f) }
    package func debug(_ m: @autoclosure () -> String, _ f: KeyValuePairs<String, Any> = [:]) { log(.debug, m(), f) }
    package func info(_ m: @autoclosure () -> String, _ f: KeyValuePairs<String, Any> = [:]) { log(.info, m(), f) }
    package func warning(_ m: @autoclosure () -> String, _ f: KeyValuePairs<String, Any> = [:]) { log(.warning, m(), f) }
    package func error(_ m: @autoclosure () -> String, _ f: KeyValuePairs<String, Any> = [:]) { log(.error, m(), f) }

    /// Values with spaces, quotes, `=`, control characters or nothing at all are quoted (and
    /// control characters escaped) so lines stay machine-parsable.
    static func quote(_ s: String) -> String {
        let needsQuotes = s.isEmpty || s.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || PrintableText.isControl($0) }
        guard needsQuotes else { return s }
        let escaped = s.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(PrintableText.escaped(escaped))\""
    }

    static func timestamp() -> String {
        var tv = timeval()
        gettimeofday(&tv, nil)
        var t = time_t(tv.tv_sec)
        var tmValue = tm()
        gmtime_r(&t, &tmValue)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                      tmValue.tm_year + 1900, tmValue.tm_mon + 1, tmValue.tm_mday,
                      tmValue.tm_hour, tmValue.tm_min, tmValue.tm_sec, Int(tv.tv_usec / 1000))
    }
}

/// Writes each line with one `write(2)` so lines from several threads never interleave.
package struct StandardErrorLogSink: LogSink {
    package init() {}
    package func write(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        bytes.withUnsafeMutableBytes { buffer in
            _ = Foundation.write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
    }
}

/// Keeps lines in memory, for tests that check what a component logged.
package final class InMemoryLogSink: LogSink {
    private let storage = Mutex<[String]>([])
    package init() {}
    package func write(_ line: String) { storage.withLock { $0.append(line) } }
    package var lines: [String] { storage.withLock { $0 } }
}

struct DiscardLogSink: LogSink {
    func write(_ line: String) {}
}
