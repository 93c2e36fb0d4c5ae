import OCRStructure
import OCRWire
import Testing

/// Dates, amounts, phone numbers, e-mail addresses and links found in lines, with their words'
/// boxes, and nothing taken from a plain number.
@Suite struct DetectedDataTests {
    private func detected(_ lines: [String]) -> [(DetectedData.Kind, String)] {
        var page = PageBuilder()
        for (index, line) in lines.enumerated() { page.paragraph([line], y: 200 + index * 100) }
        return DocumentStructure.analyze([page.page])[0].detectedData.map { ($0.kind, $0.text) }
    }

    @Test func eachKindIsFoundWithItsWords() {
        let found = detected([
            "Invoice of 3 December 2014, due Dec. 17, 2014 or 2014/12/31.",
            "Total due: $1,240.00 (or EUR 1.150,00), paid 12,50 € in advance.",
            "Call (405) 680-3701 or +44 20 7946 0958, write to billing@example.org.",
            "See https://example.org/invoices or www.example.com for details.",
        ])
        #expect(found.map(\.0) == [.date, .date, .date, .money, .money, .money, .phoneNumber, .phoneNumber, .emailAddress, .link, .link])
        #expect(found.map(\.1) == ["3 December 2014", "Dec. 17, 2014", "2014/12/31", "$1,240.00", "EUR 1.150,00", "12,50 €",
                                   "(405) 680-3701", "+44 20 7946 0958", "billing@example.org", "https://example.org/invoices", "www.example.com"])
    }

    @Test func plainNumbersAndWordsAreNotData() {
        #expect(detected(["In 2014 the plant made 1,240,000 units in 365 days at 98.5 % uptime, code 12345678."]).isEmpty)
    }

    @Test func theBoxCoversTheWords() throws {
        var page = PageBuilder()
        page.paragraph(["Call (405) 680-3701 now"], x: 100, y: 300, height: 40)
        let data = try #require(DocumentStructure.analyze([page.page])[0].detectedData.first)
        // "Call" is 4 characters of 20 px and a 13 px gap: the number starts at 193.
        #expect(data.box.x == 193)
        #expect(data.box.y == 300)
        #expect(data.box.height == 40)
    }
}
