import OCRPageModel
import Testing

/// Words whose ink has marks over its letters that their English reading does not explain (pure:
/// blocks and the thresholded page's components in). Words are boxed as ``DotLeadersTests``
/// boxes them (letters 20 px apart on the line 100-130); each letter's ink here is drawn by hand:
/// x-height letters 105-125, a wide one 18 px wide, a narrow one ("i", "I") 6 px.
@Suite struct AccentedLettersTests {
    /// Ink for `word`'s letters: a narrow stem for each "i", "I", "l", a wide letter for the rest,
    /// all from `top` to the baseline at 125.
    static func letters(_ word: RawWord, top: Int = 105) -> [RawRect] {
        word.symbols.map { symbol in
            "iIl".contains(symbol.text) ? RawRect(left: symbol.rect.left + 6, top: top, right: symbol.rect.left + 12, bottom: 125)
                                        : RawRect(left: symbol.rect.left, top: top, right: symbol.rect.right, bottom: 125)
        }
    }

    /// A mark 4 px square over the middle of the `index`th letter slot (20 px pitch), its bottom at `bottom`.
    static func mark(over index: Int, dx: Int = 0, bottom: Int = 102) -> RawRect {
        RawRect(left: 20 * index + 7 + dx, top: bottom - 4, right: 20 * index + 11 + dx, bottom: bottom)
    }

    static func found(_ word: RawWord, _ components: [RawRect]) -> [RawRect] {
        AccentedLetters.words(in: DotLeadersTests.line([word]), components: components).map(\.region)
    }

    static func umlauts(_ word: RawWord, _ components: [RawRect]) -> [Int] {
        AccentedLetters.words(in: DotLeadersTests.line([word]), components: components).map(\.umlauts)
    }

    /// "Saarbrücken" read "Saarbriicken": the reading has two i's with dots, and there are two
    /// dots, but both stand over one wide letter (the "u"): an umlaut.
    @Test func twoDotsOverOneLetterAreAnUmlaut() {
        let word = DotLeadersTests.word("Miihlen", 0)
        // The ink: "M", one "u" (where "ii" was read) 18 px wide, "h", "l", "e", "n".
        var ink = [RawRect(left: 0, top: 105, right: 18, bottom: 125), RawRect(left: 20, top: 105, right: 38, bottom: 125)]
        ink += (3..<7).map { RawRect(left: 20 * $0, top: 105, right: 20 * $0 + 18, bottom: 125) }
        let dots = [RawRect(left: 22, top: 98, right: 26, bottom: 102), RawRect(left: 32, top: 98, right: 36, bottom: 102)]
        let regions = Self.found(word, ink + dots)
        #expect(regions == [RawRect(left: 0, top: 98, right: 138, bottom: 130)])
        #expect(Self.umlauts(word, ink + dots) == [1])
        #expect(AccentedLetters.readingOrder(AccentedLetters.Word(place: .init(block: 0, paragraph: 0, line: 0, word: 0), region: regions[0], umlauts: 1)) == ["deu", "fra"])
        // The same dots over two narrow stems are the reading's two i's: nothing to read.
        let stems = [RawRect(left: 22, top: 105, right: 26, bottom: 125), RawRect(left: 32, top: 105, right: 36, bottom: 125)]
        #expect(Self.found(word, [ink[0]] + stems + ink[2...] + dots).isEmpty)
    }

    /// "Peñas" read "Peas" (a tilde over a letter, no dotted letter read), "MARTÍN" read
    /// "MARTIN" (an accent over a capital, no dotted letter in the reading), "rápido" read
    /// "rapido" (two marks, one i).
    @Test func moreMarksThanDottedLettersAreAccents() {
        let peas = DotLeadersTests.word("Peas", 0)
        #expect(Self.umlauts(peas, Self.letters(peas) + [Self.mark(over: 2)]) == [0])
        let martin = DotLeadersTests.word("MARTIN", 0)
        #expect(Self.found(martin, Self.letters(martin) + [Self.mark(over: 4)]).count == 1)
        let rapido = DotLeadersTests.word("rapido", 0)
        #expect(Self.found(rapido, Self.letters(rapido) + [Self.mark(over: 1), Self.mark(over: 3)]).count == 1)
        // "finish": as many dots as the reading has i's, wherever they stand (an i run into the
        // next letter, an i with serifs as wide as an "n").
        let finish = DotLeadersTests.word("finish", 0)
        #expect(Self.found(finish, Self.letters(finish) + [Self.mark(over: 1), Self.mark(over: 2)]).isEmpty)
    }

    /// Ink that is no accent: a speck, a mark below the letters' top (a dithered letter's
    /// stroke), a mark taller than half the letter, a point ending the line above; and words
    /// that are no names (an address, a code, one letter, a word printed turned).
    @Test func inkThatIsNoAccentIsNot() {
        let word = DotLeadersTests.word("tone", 0)
        let letters = Self.letters(word)
        #expect(Self.found(word, letters + [RawRect(left: 48, top: 101, right: 49, bottom: 102)]).isEmpty)
        #expect(Self.found(word, letters + [Self.mark(over: 2, bottom: 108)]).isEmpty)
        #expect(Self.found(word, letters + [RawRect(left: 47, top: 92, right: 51, bottom: 103)]).isEmpty)
        #expect(Self.found(word, letters + [Self.mark(over: 2, bottom: 90)]).isEmpty)
        #expect(Self.found(word, letters + [Self.mark(over: 2)]).count == 1)  // the same letters with an accent
        for text in ["ab@cd.ef", "RTE-1", "e"] {
            let other = DotLeadersTests.word(text, 0)
            #expect(Self.found(other, Self.letters(other) + [Self.mark(over: 0)]).isEmpty, "\(text)")
        }
        // The foot of a letter of the line above, in that word's box (a receipt's tight lines).
        let above = DotLeadersTests.word("LL", 40, top: 70, bottom: 103)
        var blocks = DotLeadersTests.line([word])
        blocks[0].paragraphs[0].lines.append(RawLine(confidence: 0.5, rect: above.rect, baseline: [40, 103, 78, 103], words: [above]))
        #expect(AccentedLetters.words(in: blocks, components: letters + [Self.mark(over: 2)]).isEmpty)
        let turned = DotLeadersTests.word("ab", 0, top: 0, bottom: 130)
        #expect(Self.found(turned, [RawRect(left: 0, top: 20, right: 18, bottom: 125), RawRect(left: 20, top: 20, right: 38, bottom: 125),
                                    RawRect(left: 7, top: 10, right: 11, bottom: 14)]).isEmpty)
    }

    /// A reading is kept where it is the English reading with accented letters in the places of
    /// one or two characters each, nothing else changed, and a diaeresis on as many letters as
    /// the ink has umlauts.
    @Test func aReadingIsKeptWhereItOnlyAddsTheAccentsTheInkShows() {
        #expect(AccentedLetters.keeps("MARTÍN", over: "MARTIN", umlauts: 0))
        #expect(AccentedLetters.keeps("Saarbrücken,", over: "Saarbriicken,", umlauts: 1))
        #expect(AccentedLetters.keeps("(Peñas", over: "(Pefias", umlauts: 0))
        #expect(AccentedLetters.keeps("Räsänen", over: "Rasinen", umlauts: 2))
        #expect(!AccentedLetters.keeps("úber", over: "iiber", umlauts: 1))  // one mark where the ink has two
        #expect(!AccentedLetters.keeps("Mäler", over: "Maler", umlauts: 0))  // two where it has one
        #expect(!AccentedLetters.keeps("MARTIN", over: "MARTIN", umlauts: 0))  // no accent
        #expect(!AccentedLetters.keeps("Martín", over: "MARTIN", umlauts: 0))  // other letters changed
        #expect(!AccentedLetters.keeps("Garcíaa", over: "Garcia", umlauts: 0))
        #expect(!AccentedLetters.keeps("Año", over: "Ano.", umlauts: 0))
        #expect(!AccentedLetters.keeps("Straße", over: "Strabe", umlauts: 0))  // no accent: "ß" is a letter of its own
    }
}
