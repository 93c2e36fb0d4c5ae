import Foundation
import OCRWire
import OCRTestSupport
import Testing
@testable import OCRClient

/// PAGE XML 2019-07-15, validated by xmllint against the schema in `Tests/Fixtures/schemas`.
@Suite(.blocking) struct PAGETests {

    @Test
    func everyPageOfAHandBuiltDocumentValidates() throws {
        let documents = ALTOTests.handBuilt.pageXML()
        #expect(documents.count == 4, "one PcGts per page, failed and missing ones included")
        for (i, xml) in documents.enumerated() {
            let result = try XMLCheck.validatePAGE(xml)
            #expect(result.status == 0, "page \(i + 1): \(result.stderr)")
            #expect(result.stderr.contains("validates"), "\(result.stderr)")
        }
        let first = documents[0]
        #expect(first.contains("xmlns=\"http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15\""))
        #expect(first.contains("imageWidth=\"800\" imageHeight=\"600\""))
        #expect(first.contains("<RegionRefIndexed index=\"0\" regionRef=\"region_1_1\"/>"))
        #expect(first.contains("<Baseline points=\"100,116 160,118\"/>"))
        #expect(first.contains("<TextEquiv conf=\"0.8\"><Unicode>Grüße,</Unicode></TextEquiv>"))
        #expect(first.contains("<Unicode>&lt;a&amp;b&gt;</Unicode>"))
        #expect(first.contains("<ImageRegion id=\"other_1_1\">"))
        // Every word of the two recognised pages, as ALTO has them (14 Strings).
        #expect(XMLCheck.matches("<Word id=", in: first).count + XMLCheck.matches("<Word id=", in: documents[2]).count == 14)
        #expect(documents[1].contains("<Comments>page 2 failed: DEADLINE_EXCEEDED: page timeout -- 30 s</Comments>"))
        #expect(documents[3].contains("<Comments>page 4: no result was received</Comments>"))
        // As one text (ocr-submit without -o), the documents are separated by form feeds.
        #expect(try DocumentFormat.page.render(ALTOTests.handBuilt).split(separator: "\u{0C}").count == 4)
    }

    /// The structure in PAGE: a heading's region is `type="heading"`, a page number's
    /// `page-number`, and a table is a `TableRegion` with its rows and columns; still valid.
    @Test
    func regionTypesAndTablesValidate() throws {
        let page = PageResult.with {
            $0.pageIndex = 0
            $0.width = 2000
            $0.height = 3000
            $0.blocks = [
                PageDrawing.block([PageDrawing.line("Meter Readings", x: 100, y: 100, height: 90)]),
                PageDrawing.block([PageDrawing.line("Read by the site team of the northern works in May.", x: 100, y: 300)]),
                PageDrawing.block([[PageDrawing.word("Meter", 100, 500), PageDrawing.word("Reading", 900, 500)]]),
                PageDrawing.block([[PageDrawing.word("A-1", 100, 570), PageDrawing.word("1204", 900, 570)]]),
                PageDrawing.block([[PageDrawing.word("A-2", 100, 640), PageDrawing.word("877", 900, 640)]]),
                PageDrawing.block([[PageDrawing.word("B-1", 100, 710), PageDrawing.word("3310", 900, 710)]]),
                PageDrawing.block([PageDrawing.line("7", x: 1000, y: 2900)]),
            ]
        }
        let xml = try #require(Document(results: [page]).pageXML().first)
        let result = try XMLCheck.validatePAGE(xml)
        #expect(result.status == 0, "\(result.stderr)\n\(xml)")
        #expect(xml.contains("<TextRegion id=\"region_1_1\" type=\"heading\">"))
        #expect(xml.contains("<TextRegion id=\"region_1_2\" type=\"paragraph\">"))
        #expect(xml.contains("type=\"page-number\""))
        #expect(xml.contains("<TableRegion id=\"other_1_1\" rows=\"4\" columns=\"2\">"))
        // One cell region per cell, its role giving row, column, spans and header.
        let cells = XMLCheck.matches("<TableCellRole rowIndex=\"(\\d+)\" columnIndex=\"(\\d+)\" rowSpan=\"1\" colSpan=\"1\" header=\"(true|false)\"/>", in: xml)
        #expect(cells.map { "\($0[1]),\($0[2]),\($0[3])" } == ["0,0,true", "0,1,true", "1,0,false", "1,1,false", "2,0,false", "2,1,false", "3,0,false", "3,1,false"])
        #expect(xml.contains("<TextRegion id=\"cell_1_1_3_1\" type=\"paragraph\">"))
        #expect(xml.contains("<Unicode>3310</Unicode></TextEquiv>\n      </TextRegion>"))
    }

    @Test
    func theValidatorCatchesInvalidPAGE() throws {
        let valid = ALTOTests.handBuilt.pageXML()[0]
        let broken = valid.replacingOccurrences(of: "conf=\"0.8\"", with: "conf=\"80\"")
        #expect(broken != valid)
        let result = try XMLCheck.validatePAGE(broken)
        #expect(result.status != 0)
        #expect(result.stderr.contains("conf"))
    }

    @Test
    func aRealPageValidatesWithEveryWordOfTesseract() throws {
        let run = try TesseractRun.shared.get()
        let page = try TSVParser.pages(run.tsv)[0]
        let xml = try #require(Document(results: [page]).pageXML().first)
        let result = try XMLCheck.validatePAGE(xml)
        #expect(result.status == 0, "\(result.stderr)")
        let words = XMLCheck.matches("<Word id=\"[^\"]+\">\\s*<Coords[^>]*/>\\s*(?:<Glyph.*?</Glyph>\\s*)*<TextEquiv[^>]*><Unicode>([^<]*)</Unicode>", in: xml)
        #expect(words.count == 60)
    }
}
