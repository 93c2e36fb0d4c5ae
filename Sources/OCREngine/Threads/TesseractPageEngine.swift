import OCRPageModel
import OCRPages
import OCRPageEngine
import OCRWire

/// The production engine: OCREngine's `Recognizer` (Tesseract) behind `PageEngine`.
///
/// One per engine thread, made on that thread by `PageEngineFactory.tesseract` and reused for
/// every page it runs (the Recognizer keeps its initialised Tesseract instances), so models load
/// once per slot. The task's `PageControl` is Tesseract's monitor's cancellation and deadline.
package final class TesseractPageEngine: PageEngine {
    private let recognizer: Recognizer

    /// Makes the recognizer and, when `warmUp` is given, loads its models now (so the first page
    /// does not pay for it and missing language data fails startup instead of every page).
    package init(configuration: EngineConfiguration = EngineConfiguration(),
                warmUp: RecognitionOptions? = RecognitionOptions()) throws {
        recognizer = Recognizer(configuration: configuration)
        if let warmUp { try recognizer.prepare(warmUp) }
    }

    package func recognize(task: PageTask, control: PageControl) throws -> PageResult {
        let page = PageDescriptor(file: task.file, filePage: Int(task.filePage), pageIndex: Int(task.pageIndex),
                                  content: task.content, format: task.format)
        return try recognizer.recognize(page, options: task.options ?? RecognitionOptions(),
                                        deadline: control.deadline, cancellation: control)
    }
}

extension PageEngineFactory {
    /// `TesseractPageEngine` on every slot; announces the installed languages (without `osd`,
    /// which only detects orientation).
    package static func tesseract(_ configuration: EngineConfiguration = EngineConfiguration()) -> PageEngineFactory {
        PageEngineFactory(name: "tesseract", languages: configuration.installedLanguages.filter { $0 != "osd" }) { _ in
            try TesseractPageEngine(configuration: configuration)
        }
    }
}

extension PageEngineFactory {
    /// Parses an `--engine` value: `tesseract` or one of the built-in engines (`builtin(_:)`).
    /// Returns `nil` for anything else.
    package static func parse(_ spec: String, tesseract configuration: EngineConfiguration = EngineConfiguration()) -> PageEngineFactory? {
        spec == "tesseract" ? .tesseract(configuration) : builtin(spec)
    }
}
