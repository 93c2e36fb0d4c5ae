import OCRCoordinator
import OCREngine
import OCRWire

/// The coordinator's splitter backed by OCREngine: each page descriptor carries only its own page,
/// still compressed (a multipage TIFF becomes single-page TIFFs by copying each directory's raw
/// strips, a PDF single-page PDFs by `pdfseparate`); nothing is decoded or rasterised here (workers
/// do that), and `filePage` stays the page's number in the original file.
public enum EngineSplitter {
    public static func make(_ splitter: PageSplitter = PageSplitter()) -> @Sendable (InputFile) throws -> [OCRCoordinator.PageDescriptor] {
        { file in
            try splitter.pages(file: file.name, content: file.content, format: file.format).map {
                OCRCoordinator.PageDescriptor(file: $0.file, filePage: UInt32($0.filePage), content: $0.content, format: $0.format)
            }
        }
    }
}
