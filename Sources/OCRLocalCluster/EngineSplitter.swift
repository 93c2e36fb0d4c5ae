import OCRCoordinator
import OCREngine
import OCRWire

/// The coordinator's splitter backed by OCREngine: TIFF directories are counted by walking the
/// directory chain, PDFs by `pdfinfo`; nothing is rasterised here (workers do that).
public enum EngineSplitter {
    public static func make(_ splitter: PageSplitter = PageSplitter()) -> @Sendable (InputFile) throws -> [OCRCoordinator.PageDescriptor] {
        { file in
            try splitter.pages(file: file.name, content: file.content, format: file.format).map {
                OCRCoordinator.PageDescriptor(file: $0.file, filePage: UInt32($0.filePage), content: $0.content, format: $0.format)
            }
        }
    }
}
