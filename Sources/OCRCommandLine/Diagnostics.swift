import Foundation
import OCRLog

/// Error lines on standard error, one per message: control characters in them (a file name
/// with a newline or an escape sequence) are escaped, so a line can neither be forged nor drive
/// the terminal.
package enum Diagnostics {
    /// Writes `message` and a newline to standard error, escaped (`PrintableText`).
    package static func write(_ message: String) {
        FileHandle.standardError.write(Data((PrintableText.escaped(message) + "\n").utf8))
    }

    /// A usage error: its message (escaped, as any other) and the `--help` hint, on two lines.
    package static func write(usage error: UsageError) {
        write("\(error.command): \(error.message)")
        write("Try '\(error.command) --help' for more information.")
    }
}
