import OCRPages
import Testing
import OCRWire
@testable import OCRCoordinator

/// What SubmitJob refuses before splitting, and page ranges across a job's files.
@Suite struct SubmitValidationTests {
    static func pages(_ n: Int) -> [PageDescriptor] {
        (1...n).map { PageDescriptor(file: $0 <= 2 ? "a.tif" : "b.tif", filePage: $0 <= 2 ? $0 : $0 - 2, content: [1], format: .tiff) }
    }
    static func range(_ a: UInt32, _ b: UInt32) -> PageRange { PageRange.with { $0.first = a; $0.last = b } }

    @Test func rangesCountAcrossFilesFromOne() throws {
        let pages = Self.pages(5)
        #expect(try SubmitValidation.selectPages(pages, ranges: []).count == 5)
        let picked = try SubmitValidation.selectPages(pages, ranges: [Self.range(4, 0), Self.range(1, 1)])
        #expect(picked.map(\.file) == ["a.tif", "b.tif", "b.tif"])
        #expect(picked.map(\.filePage) == [1, 2, 3])
        #expect(try SubmitValidation.selectPages(pages, ranges: [Self.range(2, 99)]).count == 4)
        #expect(throws: OCRError(.outOfRange, "page range 6-7 starts after the last page (5)")) {
            try SubmitValidation.selectPages(pages, ranges: [Self.range(6, 7)])
        }
    }

    @Test func badRequestsAreRefusedNamingTheField() {
        func refuse(_ build: (inout SubmitJobRequest) -> Void) -> OCRError? {
            var request = SubmitJobRequest.with { $0.files = [InputFile.with { $0.name = "x.png"; $0.content = [1] }] }
            build(&request)
            do { try SubmitValidation.validate(request); return nil } catch { return error }
        }
        #expect(refuse { _ in } == nil)
        #expect(refuse { $0.files = [] }?.message == "a job needs at least one file")
        #expect(refuse { $0.files[0].content = [] }?.file == "x.png")
        #expect(refuse { $0.options = .with { $0.candidates = 11 } }?.code == .invalidArgument)
        #expect(refuse { $0.options = .with { $0.minimumConfidence = 1.5 } }?.code == .invalidArgument)
        #expect(refuse { $0.options = .with { $0.regionOfInterest = .with { $0.x = 0.5; $0.width = 0.6; $0.height = 1 } } }?.code == .invalidArgument)
        #expect(refuse { $0.options = .with { $0.languages = "eng+../../etc" } }?.code == .invalidArgument)
        #expect(refuse { $0.options = .with { $0.pageRanges = [Self.range(0, 2)] } }?.code == .invalidArgument)
        #expect(refuse { $0.options = .with { $0.languages = "eng+deu" } } == nil)
    }

    /// Enum values this version does not know (a newer client's) are refused at submit, naming
    /// the field, not page by page on the workers.
    @Test func unknownEnumValuesAreRefusedNamingTheirField() {
        let cases: [(String, (inout RecognitionOptions) -> Void)] = [
            ("level", { $0.level = .unrecognized(7) }),
            ("engine_mode", { $0.engineMode = .unrecognized(9) }),
            ("binarization", { $0.binarization = .unrecognized(9) }),
            ("page_detection", { $0.pageDetection = .unrecognized(9) }),
            ("pdf_text_layer", { $0.pdfTextLayer = .unrecognized(9) }),
            ("page_segmentation_mode", { $0.pageSegmentationMode = .unrecognized(99) }),
            ("candidates", { $0.candidates = 11 }),
            ("minimum_confidence", { $0.minimumConfidence = .nan }),
            ("dpi", { $0.dpi = 2401 }),
        ]
        for (field, set) in cases {
            var request = SubmitJobRequest.with { $0.files = [InputFile.with { $0.name = "x.png"; $0.content = [1] }] }
            var options = RecognitionOptions()
            set(&options)
            request.options = options
            let error = #expect(throws: OCRError.self) { try SubmitValidation.validate(request) }
            #expect(error?.code == .invalidArgument, "\(field)")
            #expect(error?.details["field"] == field, "\(field): \(String(describing: error))")
        }
    }
}
