import Foundation
import OCRWire
import OCRTestSupport
import Testing
@testable import OCRClient

@Suite(.blocking) struct ALTOTests {
    static var handBuilt: Document {
        Document(results: [Fixtures.page(2), Fixtures.page(0)], failures: [Fixtures.failure(1)], pageCount: 4)
    }

    @Test(arguments: [false, true])
    func handBuiltDocumentValidatesAgainstALTO44(glyphs: Bool) throws {
        let alto = Self.handBuilt.alto(glyphs: glyphs)
        let result = try XMLCheck.validateALTO(alto)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("validates"), "\(result.stderr)")

        #expect(alto.contains("xmlns=\"http://www.loc.gov/standards/alto/ns-v4#\""))
        #expect(alto.contains("<MeasurementUnit>pixel</MeasurementUnit>"))
        #expect(alto.contains("<fileName>scan \"A\" &amp; &lt;b&gt;.tiff</fileName>"))
        let pages = XMLCheck.matches("<Page ID=\"(page_\\d)\" PHYSICAL_IMG_NR=\"(\\d)\"([^>]*)>", in: alto)
        #expect(pages.map { $0[1] } == ["page_1", "page_2", "page_3", "page_4"])
        #expect(pages[0][3] == " WIDTH=\"800\" HEIGHT=\"600\" PC=\"0.85\"")
        #expect(pages[1][3] == " QUALITY=\"Missing\" QUALITY_DETAIL=\"DEADLINE_EXCEEDED: page timeout -- 30 s\"/")
        #expect(pages[3][3] == " QUALITY=\"Missing\" QUALITY_DETAIL=\"no result was received\"/")
        #expect(alto.contains("<PrintSpace HPOS=\"0\" VPOS=\"0\" WIDTH=\"800\" HEIGHT=\"600\">"))
        #expect(alto.contains("<Illustration ID=\"region_1_1\" HPOS=\"400\" VPOS=\"400\" WIDTH=\"100\" HEIGHT=\"80\"/>"))
        #expect(alto.contains("<TextLine ID=\"line_1_1\" HPOS=\"100\" VPOS=\"100\" WIDTH=\"60\" HEIGHT=\"20\" BASELINE=\"100,116 160,118\">"))
        #expect(alto.contains("<String ID=\"word_1_3\" HPOS=\"100\" VPOS=\"200\" WIDTH=\"60\" HEIGHT=\"20\" WC=\"0.8\" CONTENT=\"Grüße,\""))
        #expect(alto.contains("CONTENT=\"&lt;a&amp;b&gt;\""))
        #expect(alto.contains("CONTENT=\"&quot;it&#39;s&quot;\""))
        #expect(alto.contains("WC=\"0.29\" CONTENT=\"日本語\""))
        // SP between words: from the right of one word to the left of the next.
        #expect(alto.contains("<SP HPOS=\"140\" VPOS=\"100\" WIDTH=\"10\"/>"))
        #expect(XMLCheck.matches("<ComposedBlock ", in: alto).count == 2)
        #expect(XMLCheck.matches("<TextBlock ", in: alto).count == 4)
        #expect(XMLCheck.matches("<String ", in: alto).count == 14)
        if glyphs {
            #expect(alto.contains("<Glyph CONTENT=\"日\" GC=\"0.29\" HPOS=\"160\" VPOS=\"230\" WIDTH=\"10\" HEIGHT=\"20\"/>"))
            #expect(alto.contains("<Glyph CONTENT=\"&lt;\""))
        } else {
            #expect(!alto.contains("<Glyph"))
        }
    }

    @Test func theValidatorCatchesInvalidALTO() throws {
        let valid = try DocumentFormat.alto.render(Self.handBuilt)
        let broken = valid.replacingOccurrences(of: "WC=\"0.8\"", with: "WC=\"80\"")
        #expect(broken != valid)
        let result = try XMLCheck.validateALTO(broken)
        #expect(result.status != 0)
        #expect(result.stderr.contains("WC"))
    }

    @Test func glyphsAreLeftOutWhenASymbolIsMoreThanOneCharacter() throws {
        var page = Fixtures.page(0)
        page.blocks[0].paragraphs[0].lines[0].words[0].symbols[0].text = "ﬁx"
        let alto = Document(results: [page]).alto(glyphs: true)
        #expect(try XMLCheck.validateALTO(alto).status == 0)
        #expect(!alto.contains("<Glyph CONTENT=\"P\""))
        #expect(alto.contains("<Glyph CONTENT=\"2\"") || alto.contains("<Glyph CONTENT=\"1\""))
    }

    @Test func realPageValidatesAndMatchesTesseractsStrings() throws {
        let run = try TesseractRun.shared.get()
        let page = try TSVParser.pages(run.tsv)[0]
        let ours = try DocumentFormat.alto.render(Document(results: [page]))
        let result = try XMLCheck.validateALTO(ours)
        #expect(result.status == 0, "\(result.stderr)")
        // Tesseract writes ALTO v3 with the same String geometry and content.
        let strings = "<String ID=\"[a-z_0-9]+\" HPOS=\"(\\d+)\" VPOS=\"(\\d+)\" WIDTH=\"(\\d+)\" HEIGHT=\"(\\d+)\" WC=\"([0-9.]+)\" CONTENT=\"([^\"]*)\""
        let theirs = XMLCheck.matches(strings, in: run.alto)
        let mine = XMLCheck.matches(strings, in: ours)
        #expect(theirs.count == 60)
        #expect(mine.map { $0[1...4] + [$0[6]] } == theirs.map { $0[1...4] + [$0[6]] })
        for (a, b) in zip(mine, theirs) {
            // Tesseract truncates WC to two decimals.
            #expect(abs((Double(a[5]) ?? -1) - (Double(b[5]) ?? 9)) < 0.01)
        }
        let spaces = "<SP WIDTH=\"(\\d+)\" VPOS=\"(\\d+)\" HPOS=\"(\\d+)\"/>"
        let mySpaces = XMLCheck.matches("<SP HPOS=\"(\\d+)\" VPOS=\"(\\d+)\" WIDTH=\"(\\d+)\"/>", in: ours).map { [$0[3], $0[2], $0[1]] }
        #expect(mySpaces == XMLCheck.matches(spaces, in: run.alto).map { Array($0[1...]) })
    }
}
