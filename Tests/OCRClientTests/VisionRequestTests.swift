import Foundation
import OCRWire
import Testing
@testable import OCRClient

@Suite struct VisionRequestTests {
    @Test func regionOfInterestFlipsToTheWiresTopLeftOrigin() throws {
        // Vision's bottom half (origin bottom-left) is the wire's lower half: top edge at 0.5.
        let bottomHalf = try #require(try NormalizedRect(x: 0, y: 0, width: 1, height: 0.5).wireRegionOfInterest())
        #expect(bottomHalf.x == 0 && bottomHalf.y == 0.5 && bottomHalf.width == 1 && bottomHalf.height == 0.5)
        let topHalf = try #require(try NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5).wireRegionOfInterest())
        #expect(topHalf.y == 0)
        let inner = try #require(try NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4).wireRegionOfInterest())
        #expect(abs(inner.x - 0.1) < 1e-12 && abs(inner.y - 0.4) < 1e-12 && abs(inner.width - 0.3) < 1e-12 && abs(inner.height - 0.4) < 1e-12)
        // And back.
        let back = NormalizedRect(wire: inner)
        #expect(abs(back.y - 0.2) < 1e-12 && abs(back.height - 0.4) < 1e-12)
        // The whole image is "no region".
        #expect(try NormalizedRect.fullImage.wireRegionOfInterest() == nil)
        // A pixel box at the top of the image, normalised (bottom-left) then sent as a region,
        // comes back to its top-left pixel rows.
        let pixelTop = NormalizedRect(imageRect: box(0, 0, 800, 150), imageWidth: 800, imageHeight: 600)
        let wire = try #require(try pixelTop.wireRegionOfInterest())
        #expect(abs(wire.y) < 1e-12 && abs(wire.height - 0.25) < 1e-12)
    }

    /// `page_quad` (pixels, top-left origin, clockwise from the top left) becomes Vision's
    /// rectangle observation: normalised corners with a bottom-left origin and their bounding box.
    @Test func aPhotographedPagesQuadIsARectangleObservation() throws {
        var result = PageResult()
        (result.width, result.height) = (800, 600)
        result.pageQuad = [100, 50, 700, 40, 760, 560, 90, 590]
        let page = try #require(RectangleObservation(pageQuad: result.pageQuad, imageWidth: 800, imageHeight: 600))
        #expect(page.topLeft == NormalizedPoint(x: 100.0 / 800, y: 1 - 50.0 / 600))
        #expect(page.topRight == NormalizedPoint(x: 700.0 / 800, y: 1 - 40.0 / 600))
        #expect(page.bottomRight == NormalizedPoint(x: 760.0 / 800, y: 1 - 560.0 / 600))
        #expect(page.bottomLeft == NormalizedPoint(x: 90.0 / 800, y: 1 - 590.0 / 600))
        #expect(abs(page.boundingBox.x - 90.0 / 800) < 1e-12 && abs(page.boundingBox.y - (1 - 590.0 / 600)) < 1e-12)
        #expect(abs(page.boundingBox.width - 670.0 / 800) < 1e-12 && abs(page.boundingBox.height - 550.0 / 600) < 1e-12)
        let document = Document(results: [result], pageCount: 2)
        #expect(document.documentSegmentationObservations() == [page, nil])
        #expect(RectangleObservation(pageQuad: [], imageWidth: 800, imageHeight: 600) == nil, "a scan has no page quad")
    }

    @Test func invalidRegionsAreRefused() {
        for rect in [NormalizedRect(x: 0, y: 0, width: 0, height: 1), NormalizedRect(x: 0.5, y: 0, width: 0.6, height: 1),
                     NormalizedRect(x: -0.1, y: 0, width: 0.5, height: 0.5), NormalizedRect(x: 0, y: .nan, width: 1, height: 1)] {
            do {
                _ = try rect.wireRegionOfInterest()
                Issue.record("accepted \(rect)")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
    }

    @Test func relativeToARegionIsVisionsROICoordinates() {
        let region = NormalizedRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        let box = NormalizedRect(x: 0.75, y: 0.5, width: 0.25, height: 0.25)
        #expect(box.relative(to: region) == NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.5))
        #expect(region.relative(to: region) == .fullImage)
    }

    @Test func recognizeTextRequestOptions() throws {
        var request = RecognizeTextRequest()
        var options = try request.recognitionOptions()
        #expect(options.level == .accurate)
        #expect(options.languageCorrection == true)
        #expect(options.languages == "eng")
        #expect(options.regionOfInterest == nil)
        #expect(options.detectOnly == false)
        #expect(options.candidates == 1)

        request.recognitionLevel = .fast
        request.usesLanguageCorrection = false
        request.recognitionLanguages = ["en-US", "de-DE", "zh-Hans", "en-GB", "frk", "pt_BR"]
        request.customWords = ["Zwölfkampf", "OCRmyPDF"]
        request.minimumTextHeight = 0.05
        request.regionOfInterest = NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        request.maximumCandidates = 40
        request.baseOptions.deskew = true
        options = try request.recognitionOptions()
        #expect(options.level == .fast)
        #expect(options.languageCorrection == false)
        #expect(options.languages == "eng+deu+chi_sim+frk+por")
        #expect(options.customWords == ["Zwölfkampf", "OCRmyPDF"])
        #expect(options.minimumTextHeight == 0.05)
        #expect(options.regionOfInterest == Ocr_V1_NormalizedRect.with { $0.x = 0.25; $0.y = 0.25; $0.width = 0.5; $0.height = 0.25 })
        #expect(options.candidates == 10)
        #expect(options.deskew)

        request.minimumTextHeight = 1.5
        #expect(throws: OCRError.self) { try request.recognitionOptions() }
        #expect(RecognizeTextRequest.tesseractLanguages([]) == "")
        #expect(RecognizeTextRequest.tesseractLanguages(["zh-Hant-TW", "ja", "ja-JP"]) == "chi_tra+jpn")
    }

    @Test func detectTextRectanglesRequestOptions() throws {
        let options = try DetectTextRectanglesRequest(reportCharacterBoxes: true).recognitionOptions()
        #expect(options.detectOnly && options.reportCharacterBoxes)
        #expect(try DetectTextRectanglesRequest().recognitionOptions().reportCharacterBoxes == false)
        // Per-page arrays in page order; pages without a result are empty.
        let document = Document(results: [Fixtures.page(0), Fixtures.page(2)], pageCount: 3)
        let pages = document.textRectangleObservations(reportCharacterBoxes: true)
        #expect(pages.map(\.count) == [7, 0, 7])
        #expect(pages[2].allSatisfy { r in r.characterBoxes!.allSatisfy { r.boundingBox.contains($0) } })
    }
}
