import Foundation
import OCRWire
import OCRTestSupport
import Testing
@testable import OCRClient

@Suite(.blocking) struct GeometryTests {
    @Test func normalisedBoxesHaveABottomLeftOrigin() {
        // A box at the top-left of a 800x600 page ends up near y = 1.
        let rect = NormalizedRect(imageRect: box(80, 0, 160, 60), imageWidth: 800, imageHeight: 600)
        #expect(rect == NormalizedRect(x: 0.1, y: 0.9, width: 0.2, height: 0.1))
        let bottom = NormalizedRect(imageRect: box(0, 540, 800, 60), imageWidth: 800, imageHeight: 600)
        #expect(bottom.minY == 0 && bottom.maxY == 0.1 && bottom.width == 1)
        #expect(NormalizedRect(imageRect: box(0, 0, 800, 600), imageWidth: 800, imageHeight: 600) == .fullImage)
        #expect(rect.cgRect == CGRect(x: 0.1, y: 0.9, width: 0.2, height: 0.1))
    }

    @Test func backToPixelsRoundTrips() {
        for b in [box(80, 0, 160, 60), box(0, 0, 800, 600), box(13, 417, 7, 3), box(799, 599, 1, 1)] {
            let rect = NormalizedRect(imageRect: b, imageWidth: 800, imageHeight: 600)
            #expect(rect.toImageCoordinates(imageWidth: 800, imageHeight: 600) == b)
        }
    }

    static var observations: [RecognizedTextObservation] { Fixtures.page(0).recognizedTextObservations }

    @Test func oneObservationPerLineWithTheLineBox() throws {
        let observations = Self.observations
        #expect(observations.count == 3)
        let first = observations[0]
        // Line "Page 1": x 100...160, y 100...120 on 800x600.
        #expect(first.boundingBox == NormalizedRect(imageRect: box(100, 100, 60, 20), imageWidth: 800, imageHeight: 600))
        #expect(abs(first.boundingBox.minY - (1 - 120.0 / 600)) < 1e-12)
        #expect(first.confidence == 0.9)
        #expect(first.topCandidates(1).map(\.string) == ["Page 1"])
        // Documents give per-page arrays in page order; pages without a result are empty.
        let document = Document(results: [Fixtures.page(2)], failures: [Fixtures.failure(1)], pageCount: 3)
        #expect(document.recognizedTextObservations.map(\.count) == [0, 0, 3])
        #expect(document.recognizedTextObservations[2].allSatisfy { $0.pageIndex == 2 })
    }

    @Test func substringBoxesLieInsideTheirWordBox() throws {
        let observation = Self.observations[1]
        let text = try #require(observation.topCandidates(1).first)
        #expect(text.string == "Grüße, <a&b> \"it's\"")
        let words = observation.line.words
        var start = text.string.startIndex
        for word in words {
            let range = try #require(text.string.range(of: word.text, range: start..<text.string.endIndex))
            start = range.upperBound
            let wordRect = NormalizedRect(imageRect: word.box!, imageWidth: 800, imageHeight: 600)
            #expect(text.boundingBox(for: range) == wordRect)
            // Every single character (including ü and ß, two UTF-8 bytes each) is inside its word.
            var i = range.lowerBound
            while i < range.upperBound {
                let next = text.string.index(after: i)
                let rect = try #require(text.boundingBox(for: i..<next))
                #expect(wordRect.contains(rect))
                #expect(rect.width < wordRect.width || word.text.count == 1)
                i = next
            }
        }
        // "üß" is the 3rd and 4th symbol of "Grüße,": x 120...140.
        let uml = try #require(text.string.range(of: "üß"))
        #expect(text.boundingBox(for: uml) == NormalizedRect(imageRect: box(120, 200, 20, 20), imageWidth: 800, imageHeight: 600))
    }

    @Test func multiWordRangesAreTheUnionOfTheirWords() throws {
        let text = try #require(Self.observations[1].topCandidates(1).first)
        let s = text.string
        // From inside the first word to inside the third: union of the pieces, through the second.
        let lower = s.index(s.startIndex, offsetBy: 2)  // "ü"
        let upper = try #require(s.range(of: "it"))
        let rect = try #require(text.boundingBox(for: lower..<upper.upperBound))
        #expect(rect == NormalizedRect(imageRect: box(120, 200, 140, 20), imageWidth: 800, imageHeight: 600))
        // The whole string is the union of all its words: the line box.
        #expect(text.boundingBox(for: s.startIndex..<s.endIndex) == Self.observations[1].boundingBox)
        // The space between words is the gap between them.
        let space = try #require(s.firstIndex(of: " "))
        #expect(text.boundingBox(for: space..<s.index(after: space)) == NormalizedRect(imageRect: box(160, 200, 10, 20), imageWidth: 800, imageHeight: 600))
        // Empty and foreign ranges give nil.
        #expect(text.boundingBox(for: s.startIndex..<s.startIndex) == nil)
    }

    @Test func wordsWithoutSymbolsShareTheirBoxEvenly() throws {
        var page = Fixtures.page(0)
        page.blocks[0].paragraphs[1].lines[1].words[1].symbols = []  // "日本語" at x 160...190
        let text = try #require(page.recognizedTextObservations[2].topCandidates(1).first)
        let range = try #require(text.string.range(of: "本"))
        #expect(text.boundingBox(for: range) == NormalizedRect(imageRect: box(170, 230, 10, 20), imageWidth: 800, imageHeight: 600))
    }

    @Test func topCandidatesAreBestFirstAndBuiltFromWordCandidates() throws {
        let observation = Self.observations[1]
        let all = observation.topCandidates(10)
        // Readings: word 1 has 3, word 2 has 2, word 3 has 1: 6 combinations.
        #expect(all.count == 6)
        #expect(all[0].string == "Grüße, <a&b> \"it's\"")
        #expect(all[0].confidence == observation.confidence)
        #expect(all[1].string == "Grüße, (a&b) \"it's\"")  // loses 0.05
        #expect(all[2].string == "Grüsse, <a&b> \"it's\"")  // loses 0.1
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
        #expect(Set(all.map(\.string)).count == 6)
        #expect(observation.topCandidates(2).map(\.string) == Array(all.prefix(2).map(\.string)))
        #expect(observation.topCandidates(0).isEmpty)
        #expect(observation.topCandidates(50).count == 6)
        // A candidate that is not the engine's reading has no symbol boxes: its characters share the word box.
        let alternative = all[2]
        let range = try #require(alternative.string.range(of: "Grüsse,"))
        #expect(alternative.boundingBox(for: range) == NormalizedRect(imageRect: box(100, 200, 60, 20), imageWidth: 800, imageHeight: 600))
    }

    @Test func realTesseractLinesGiveBoxesInsideTheirLines() throws {
        let run = try TesseractRun.shared.get()
        let page = try TSVParser.pages(run.tsv)[0]
        let observations = page.recognizedTextObservations
        #expect(observations.count == 8)
        for observation in observations {
            let text = try #require(observation.topCandidates(3).first)
            #expect(text.string == observation.line.words.map(\.text).joined(separator: " "))
            for word in observation.line.words {
                let range = try #require(text.string.range(of: word.text))
                let rect = try #require(text.boundingBox(for: range))
                #expect(observation.boundingBox.contains(rect))
            }
        }
    }

    @Test func textRectanglesWithCharacterBoxes() {
        let rectangles = Fixtures.page(0).textRectangleObservations(reportCharacterBoxes: true)
        #expect(rectangles.count == 7)
        #expect(rectangles[0].characterBoxes?.count == 4)
        #expect(rectangles.allSatisfy { r in r.characterBoxes!.allSatisfy { r.boundingBox.contains($0) } })
        #expect(Fixtures.page(0).textRectangleObservations().allSatisfy { $0.characterBoxes == nil })
    }
}
