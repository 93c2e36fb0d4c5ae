import Foundation
import OCRWire

/// Something that turns one page task into a `PageResult`, synchronously, on an engine thread.
///
/// The worker runtime creates one engine per slot, on that slot's dedicated thread (through a
/// `PageEngineFactory`), and calls `recognize` only from that thread, one page at a time; an
/// engine therefore need not be thread-safe or `Sendable` (a Tesseract handle is neither).
///
/// Engines poll `control.isCancelled` (or call `control.checkpoint()`) while they work and throw
/// when it turns true; the runtime turns whatever they throw into a `Status` naming the page.
package protocol PageEngine: AnyObject {
    /// Recognises `task`'s page. Throws `OCRError` for a page that cannot be served (its code
    /// tells the coordinator whether to retry); any other error becomes INTERNAL.
    func recognize(task: PageTask, control: PageControl) throws -> PageResult
}

/// Makes the engine of each slot, on that slot's engine thread, and says what the engines can do
/// (announced in `Ready`).
package struct PageEngineFactory: Sendable {
    /// What the engine is, for logs and `--help` ("null", "sleep:50", "tesseract").
    package var name: String
    /// Installed recognition languages, announced to the coordinator.
    package var languages: [String]
    /// Called once per slot, on the slot's engine thread, before the worker announces itself. A
    /// throw fails the worker's startup.
    package var make: @Sendable (_ slot: Int) throws -> any PageEngine

    package init(name: String, languages: [String] = [], make: @escaping @Sendable (_ slot: Int) throws -> any PageEngine) {
        self.name = name
        self.languages = languages
        self.make = make
    }
}

