import Foundation
import OCRWire

// OCRWire has no Foundation; the client library gives its errors Foundation's description, so
// `error.localizedDescription` (and any UI or log that shows it) reads the code, the file, the
// page and the message instead of "The operation could not be completed".
extension OCRError: LocalizedError {
    /// `CODE: file=... page=N message`, as `description`.
    public var errorDescription: String? { description }
}
