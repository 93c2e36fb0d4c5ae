import OCRWire
import OCRTestSupport
import Testing
@testable import OCRClient

@Suite(.blocking) struct DocumentTests {
    @Test func pagesAreInOrderWhateverTheArrivalOrder() {
        let orders: [[Int]] = [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 0, 4, 1, 3], [1, 4, 0, 3, 2]]
        for order in orders {
            var document = Document(pageCount: 5)
            for index in order { document.add(Fixtures.page(index)) }
            #expect(document.pages.map(\.pageIndex) == [0, 1, 2, 3, 4])
            #expect(document.recognizedPages.map(\.pageIndex) == [0, 1, 2, 3, 4])
            #expect(document.isComplete)
            #expect(document.text == (0..<5).map(Fixtures.text).joined(separator: "\u{0C}"))
        }
    }

    @Test func failedAndMissingPagesAreGapsWithTheirStatus() throws {
        var document = Document(pageCount: 4)
        document.add(Fixtures.page(3))
        document.add(Fixtures.failure(1, .resourceExhausted, "too many pixels"))
        document.add(Fixtures.page(0))
        #expect(document.pageCount == 4)
        #expect(!document.isComplete)
        let pages = document.pages
        #expect(pages.map(\.pageIndex) == [0, 1, 2, 3])
        #expect(pages[0].result != nil && pages[3].result != nil)
        let error = try #require(pages[1].error)
        #expect(error.code == .resourceExhausted)
        #expect(error.message == "too many pixels")
        #expect(error.pageIndex == 1)
        #expect(pages[2] == .missing(pageIndex: 2))
        #expect(document.gaps.map(\.pageIndex) == [1, 2])
    }

    @Test func pageCountGrowsWithTheHighestIndexWhenNotDeclared() {
        var document = Document()
        document.add(Fixtures.page(2))
        #expect(document.pageCount == 3)
        #expect(document.pages.map { $0.result == nil } == [true, true, false])
        #expect(document[5] == nil)
    }

    @Test func theFirstResultWinsAndAResultReplacesAFailure() {
        var document = Document(pageCount: 1)
        document.add(Fixtures.failure(0))
        #expect(document[0]?.error != nil)
        var first = Fixtures.page(0)
        first.text = "first\n"
        var second = Fixtures.page(0)
        second.text = "second\n"
        document.add(first)
        document.add(second)
        document.add(Fixtures.failure(0))
        #expect(document[0]?.result?.text == "first\n")
        #expect(document.gaps.isEmpty)
    }

    @Test func watchEventsBuildTheDocument() {
        var document = Document(pageCount: 3)
        let events: [JobEvent.Event] = [
            .progress(JobProgress()),
            .pageCompleted(PageCompleted.with { $0.result = Fixtures.page(2) }),
            .pageFailed(Fixtures.failure(1, .internal, "engine crashed")),
            .pageCompleted(PageCompleted.with { $0.result = Fixtures.page(0) }),
            .finished(JobFinished()),
        ]
        for (n, event) in events.enumerated() {
            document.apply(JobEvent.with { $0.jobId = "j1"; $0.sequence = UInt64(n + 1); $0.event = event })
        }
        #expect(document.pages.map(\.pageIndex) == [0, 1, 2])
        #expect(document[1]?.error?.code == .internal)
        #expect(document.text == Fixtures.text(0) + "\u{0C}" + "\u{0C}" + Fixtures.text(2))
    }
}

@Suite(.blocking) struct TextFormatTests {
    @Test func pagesAreSeparatedByFormFeedsAsTesseract5Does() throws {
        let document = Document(results: [Fixtures.page(1), Fixtures.page(0)])
        let text = try DocumentFormat.txt.render(document)
        #expect(text == Fixtures.text(0) + "\u{0C}" + Fixtures.text(1))
        #expect(!text.hasSuffix("\u{0C}"))
        #expect(text.split(separator: "\u{0C}", omittingEmptySubsequences: false).count == 2)
    }

    @Test func theEnginesPageTextIsUsedWhenPresent() {
        var page = Fixtures.page(0)
        page.text = "engine text\n"
        #expect(Document(results: [page]).text == "engine text\n")
        #expect(Document(results: [Fixtures.page(0, setText: true)]).text == Fixtures.text(0))
    }

    @Test func aFailedPageKeepsItsPlaceAsAnEmptyPage() {
        let document = Document(results: [Fixtures.page(0), Fixtures.page(2)], failures: [Fixtures.failure(1)])
        let pages = document.text.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        #expect(pages.map(String.init) == [Fixtures.text(0), "", Fixtures.text(2)])
    }

    @Test func matchesTesseractOnARealPage() throws {
        let run = try TesseractRun.shared.get()
        let pages = try TSVParser.pages(run.tsv)
        #expect(pages.count == 1)
        #expect(pages[0].text.isEmpty)  // rebuilt from the hierarchy, not copied
        #expect(Document(results: pages).text == run.txt)
    }

    @Test func matchesTesseractOnATwoPageTIFF() throws {
        let run = try TesseractRun.shared.get()
        let twoPageTxt = try #require(run.twoPageTxt, "ImageMagick's convert is needed to make the two-page TIFF")
        let page = try TSVParser.pages(run.tsv)[0]
        var second = page
        second.pageIndex = 1
        // Arrival order reversed.
        #expect(Document(results: [second, page]).text == twoPageTxt)
    }
}
