import Testing
@testable import OCREngine

/// The `accurate` level's split of run-together words at layout analysis's word gaps, and its
/// uneven-lighting check (both pure: no Tesseract).
@Suite struct WordSplittingTests {
    /// An LSTM word whose characters are 20 px wide boxes from `left`, with a 4-px gap between
    /// characters (tight text: no wider gap where the words meet).
    static func lstmWord(_ text: String, left: Int = 100, dictionary: Bool = false) -> RawWord {
        let symbols = text.enumerated().map { i, c in
            RawSymbol(text: String(c), confidence: 0.9, rect: RawRect(left: left + i * 24, top: 100, right: left + i * 24 + 20, bottom: 130))
        }
        return RawWord(text: text, confidence: 0.9, rect: WordCombination.bounds(symbols.map(\.rect))!, fromDictionary: dictionary, symbols: symbols)
    }

    /// A layout word (no text) covering characters `from..<to` of a word laid out as above.
    static func segment(_ from: Int, _ to: Int, left: Int = 100, top: Int = 101) -> RawWord {
        RawWord(rect: RawRect(left: left + from * 24, top: top, right: left + (to - 1) * 24 + 20, bottom: top + 28))
    }

    static let dictionary: Set<String> = ["once", "is", "too", "here", "for", "request", "to", "both"]
    static func isWord(_ text: String) -> Bool { dictionary.contains(text) }

    @Test func aRunTogetherWordIsCutAtTheSegmentedGaps() throws {
        let word = Self.lstmWord("onceistoo8535here")
        #expect(WordSplitting.isSuspect(word))
        let segmented = [Self.segment(0, 4), Self.segment(4, 6), Self.segment(6, 9), Self.segment(9, 13), Self.segment(13, 17)]
        let gaps = WordSplitting.gaps(in: word, segmented: segmented)
        #expect(gaps.count == 4)
        let pieces = try #require(WordSplitting.split(word, at: gaps, isWord: Self.isWord))
        #expect(pieces.map(\.text) == ["once", "is", "too", "8535", "here"])
        // Each piece has its own characters' box, and keeps the word's confidence.
        #expect(pieces[1].rect == RawRect(left: 100 + 4 * 24, top: 100, right: 100 + 5 * 24 + 20, bottom: 130))
        #expect(pieces.allSatisfy { $0.confidence == word.confidence })
        #expect(pieces[0].fromDictionary && !pieces[3].fromDictionary)
    }

    /// Touching segments (no white between them, as in tightly set text) still end a word.
    @Test func touchingSegmentsStillSplit() throws {
        let word = Self.lstmWord("both59A")
        var first = Self.segment(0, 4), second = Self.segment(4, 7)
        first.rect.right = second.rect.left + 2
        let pieces = try #require(WordSplitting.split(word, at: WordSplitting.gaps(in: word, segmented: [first, second]), isWord: Self.isWord))
        #expect(pieces.map(\.text) == ["both", "59A"])
    }

    /// A cut that leaves mostly implausible pieces is not taken: a name with a wide letter gap.
    @Test func aCutIntoImplausiblePiecesIsRefused() {
        let name = Self.lstmWord("Kowalczyk")
        let gaps = WordSplitting.gaps(in: name, segmented: [Self.segment(0, 5), Self.segment(5, 9)])
        #expect(gaps.count == 1)
        #expect(WordSplitting.split(name, at: gaps, isWord: Self.isWord) == nil)
        // Nor without a gap inside the word, nor from segments on another line.
        #expect(WordSplitting.split(name, at: [], isWord: Self.isWord) == nil)
        #expect(WordSplitting.gaps(in: name, segmented: [Self.segment(0, 5, top: 300), Self.segment(5, 9, top: 300)]).isEmpty)
    }

    /// Only implausible words of five or more letters and digits are suspects: dictionary words,
    /// numbers, short codes and short tokens are left alone.
    @Test func suspectsAreLongImplausibleWords() {
        #expect(!WordSplitting.isSuspect(Self.lstmWord("requests", dictionary: true)))
        #expect(!WordSplitting.isSuspect(Self.lstmWord("4/18/2010")))
        #expect(!WordSplitting.isSuspect(Self.lstmWord("13A")))
        #expect(!WordSplitting.isSuspect(Self.lstmWord("xq7")))
        #expect(WordSplitting.isSuspect(Self.lstmWord("requestto")))
        #expect(WordSplitting.isSuspect(Self.lstmWord("he69C")))
    }

    @Test func shortReferencesArePlausible() {
        for text in ["13A", "B12", "4B", "(7C)"] {
            #expect(WordCombination.isPlausible(Self.lstmWord(text)), "\(text)")
        }
        for text in ["13AB", "12345A", "a12", "1A2"] {
            #expect(!WordCombination.isPlausible(Self.lstmWord(text)), "\(text)")
        }
    }

    /// A page lit from one side: the text on its dark side lies on paper below the page's Otsu
    /// threshold. An evenly lit page, one whose dark paper is a corner, or one whose dark part
    /// has no text, is left alone.
    @Test func unevenLightingIsPaperDarkerThanTheGlobalThreshold() {
        func page(paper: (Int, Int) -> UInt8) -> (gray: GrayGrid, background: GrayGrid) {
            let (w, h) = (200, 100)
            var pixels = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let p = Int(paper(x, y))
                    pixels[y * w + x] = UInt8(y % 10 < 2 && x % 7 < 4 ? p * 2 / 3 : p)  // Text: two thirds as bright.
                }
            }
            let t = UnevenLighting.tile
            let background = (0..<(h / t)).flatMap { ty in (0..<(w / t)).map { tx in paper(tx * t + t / 2, ty * t + t / 2) } }
            return (GrayGrid(width: w, height: h, pixels: pixels), GrayGrid(width: w / t, height: h / t, pixels: background))
        }
        let even = page { _, _ in 230 }
        #expect(!UnevenLighting.isUneven(gray: even.gray, background: even.background))
        let sided = page { x, _ in UInt8(130 + x * 100 / 200) }  // 130 at the left edge, 230 at the right.
        #expect(UnevenLighting.isUneven(gray: sided.gray, background: sided.background))
        let corner = page { x, y in x < 20 && y < 20 ? 150 : 230 }  // One tile in fifty.
        #expect(!UnevenLighting.isUneven(gray: corner.gray, background: corner.background))
        // Dark paper without text on it (a desk around a photographed page) loses nothing.
        let desk = page { x, _ in x < 100 ? 150 : 230 }
        var blank = desk.gray
        for y in 0..<blank.height { for x in 0..<100 { blank.pixels[y * blank.width + x] = 150 } }
        #expect(!UnevenLighting.isUneven(gray: blank, background: desk.background))
    }
}
