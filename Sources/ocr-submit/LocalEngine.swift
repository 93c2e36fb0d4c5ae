import OCRWorker

/// The engine of the embedded cluster.
enum LocalEngine {
    static func factory() -> PageEngineFactory {
        // TODO(engine adapter): Tesseract once OCRWorker's adapter lands.
        .null
    }
}
