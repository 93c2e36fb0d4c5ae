import Foundation
import OCRWire
import OCRTestSupport
import Testing
@testable import OCRClient

@Suite(.blocking) struct JSONTests {
    static func parse(_ document: Document) throws -> [String: Any] {
        let data = try DocumentFormat.json.renderData(document)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func documentRoundTripsThroughJSONSerialization() throws {
        let document = Document(results: [Fixtures.page(2), Fixtures.page(0)], failures: [Fixtures.failure(1)],
                                pageCount: 4, languages: ["eng", "deu"])
        let root = try Self.parse(document)
        #expect(root["version"] as? Int == 1)
        #expect(root["pageCount"] as? Int == 4)
        #expect(root["languages"] as? [String] == ["eng", "deu"])
        #expect(root["gaps"] as? [Int] == [1, 3])
        let pages = try #require(root["pages"] as? [[String: Any]])
        #expect(pages.map { $0["pageIndex"] as? Int } == [0, 1, 2, 3])
        #expect(pages.map { $0["state"] as? String } == ["OK", "FAILED", "OK", "MISSING"])

        let status = try #require(pages[1]["status"] as? [String: Any])
        #expect(status["code"] as? String == "DEADLINE_EXCEEDED")
        #expect(status["message"] as? String == "page timeout -- 30 s")
        #expect(status["pageIndex"] as? Int == 1)
        #expect(pages[3].keys.sorted() == ["pageIndex", "state"])

        let result = try #require(pages[0]["result"] as? [String: Any])
        #expect(result["width"] as? Int == 800)
        #expect(result["file"] as? String == "scan \"A\" & <b>.tiff")
        #expect(result["workerUid"] as? String == String(UInt64(0xFEDC_BA98_7654_3210)))
        #expect((result["timings"] as? [String: Any])?["totalUs"] as? String == "1234")
        let blocks = try #require(result["blocks"] as? [[String: Any]])
        #expect(blocks.map { $0["type"] as? String } == ["BLOCK_TYPE_TEXT", "BLOCK_TYPE_IMAGE"])
        let paragraphs = try #require(blocks[0]["paragraphs"] as? [[String: Any]])
        let lines = try #require(paragraphs[1]["lines"] as? [[String: Any]])
        #expect(lines[0]["baseline"] as? [Int] == [100, 216, 290, 218])
        let words = try #require(lines[0]["words"] as? [[String: Any]])
        #expect(words.map { $0["text"] as? String } == ["Grüße,", "<a&b>", "\"it's\""])
        #expect((words[0]["confidence"] as? Double).map { abs($0 - 0.8) < 1e-6 } == true)
        let box = try #require(words[0]["box"] as? [String: Int])
        #expect(box == ["x": 100, "y": 200, "width": 60, "height": 20])
        let candidates = try #require(words[0]["candidates"] as? [[String: Any]])
        #expect(candidates.map { $0["text"] as? String } == ["Grüße,", "Grusse,", "Grüsse,"])
        let symbols = try #require(words[0]["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["text"] as? String }.compactMap { $0 }.joined() == "Grüße,")
        #expect(words[0]["fromDictionary"] as? Bool == false)
        #expect(blocks[1]["paragraphs"] as? [Any] != nil)
    }

    @Test func theShapeIsStable() throws {
        let json = try DocumentFormat.json.render(Document(results: [Fixtures.page(0)]))
        #expect(json.hasPrefix("{\"version\":1,\"software\":\"ocr-cluster\",\"languages\":[],\"pageCount\":1,\"gaps\":[],\"pages\":[{\"pageIndex\":0,\"state\":\"OK\",\"result\":{\"pageIndex\":0,\"file\":"))
        #expect(json.hasSuffix("}\n"))
        #expect(try json == DocumentFormat.json.render(Document(results: [Fixtures.page(0)])))
        // An absent box is null, not missing.
        var page = Fixtures.page(0)
        page.blocks[0].box = nil
        page.timings = nil
        let root = try Self.parse(Document(results: [page]))
        let result = try #require(((root["pages"] as? [[String: Any]])?[0]["result"]) as? [String: Any])
        #expect(result["timings"] is NSNull)
        #expect((result["blocks"] as? [[String: Any]])?[0]["box"] is NSNull)
    }

    @Test func controlCharactersAndNonFiniteNumbersStayValidJSON() throws {
        var page = Fixtures.page(0)
        page.text = "tab\there\nnul\u{0}bell\u{7} \"q\" \\ é 🙂"
        page.meanConfidence = .nan
        page.skewDegrees = -.infinity
        let root = try Self.parse(Document(results: [page]))
        let result = try #require(((root["pages"] as? [[String: Any]])?[0]["result"]) as? [String: Any])
        #expect(result["text"] as? String == page.text)
        #expect(result["meanConfidence"] as? String == "NaN")
        #expect(result["skewDegrees"] as? String == "-Infinity")
        #expect(try DocumentFormat.json.render(Document(results: [page])).contains("\\u0000"))
    }

    @Test func realPageRoundTrips() throws {
        let run = try TesseractRun.shared.get()
        let page = try TSVParser.pages(run.tsv)[0]
        let root = try Self.parse(Document(results: [page]))
        let result = try #require(((root["pages"] as? [[String: Any]])?[0]["result"]) as? [String: Any])
        let words = (result["blocks"] as? [[String: Any]] ?? []).flatMap { $0["paragraphs"] as? [[String: Any]] ?? [] }
            .flatMap { $0["lines"] as? [[String: Any]] ?? [] }.flatMap { $0["words"] as? [[String: Any]] ?? [] }
        #expect(words.count == 60)
        #expect(words.compactMap { $0["text"] as? String } == page.blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map(\.text))
    }
}
