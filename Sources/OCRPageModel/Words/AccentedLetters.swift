import Foundation

/// Accented letters, which the English model cannot read: its alphabet has "é" and no other
/// (Debian's `eng.traineddata`), so "MARTÍN" is read "MARTIN", "Saarbrücken" "Saarbriicken",
/// "Peñas" "Pefias", "Räsänen" "Rasinen". Plain `tesseract` reads them the same. Names and
/// places in English documents, and every word of a Spanish donors' list, lose them.
///
/// The page shows where: an accent is a small piece of ink over a letter, clear of it, above
/// the word's letters, that the reading does not explain. A word is read again alone with the
/// models of the languages that print such letters (``languages``) where its ink has
/// - two marks over one letter (an umlaut: "ü" read "ii" has as many dots as the reading's
///   i's, but over one letter, not two), or
/// - more marks over its letters than the reading has i's and j's ("Í" read "I", "á" read "a").
/// An accent that takes the place of an i's dot ("í" read "i") is not found so.
///
/// The new reading is kept only where it is the word as read with accented letters in the
/// places of one or two letters each, with as many umlauts as the ink shows
/// (``keeps(_:over:umlauts:)``): the other models' dictionaries never change an English word's letters.
package enum AccentedLetters {
    /// The models whose letters are read (Debian's `tesseract-ocr-spa`, `-por`, `-fra`, `-deu`):
    /// together they have the accented letters of the Latin alphabets of western Europe, and
    /// none alone has them all (Spanish has no "ü", French no "í", German no "é").
    package static let languages = ["spa", "por", "fra", "deu"]

    /// The models to read `word` with, in turn until one reads it with accents: a model without
    /// an umlaut reads one as another accent ("über" as "úber" in Spanish), so a word with an
    /// umlaut is read with the German and French models, any other with the Spanish (acute
    /// accents, "ñ"), Portuguese (tildes, circumflexes) and French (grave accents) ones.
    package static func readingOrder(_ word: Word) -> [String] {
        word.umlauts > 0 ? ["deu", "fra"] : ["spa", "por", "fra"]
    }

    /// A mark is at most this share of the height of the letter under it (an i's dot, an
    /// accent; a colon's dots are as tall as each other, an exclamation mark's stroke taller
    /// than its dot).
    static let markHeight = 0.5
    /// A mark is at most this share of the letter's height above it (an accent or a dot is
    /// near; a point ending the line above is further).
    static let markGap = 0.5
    /// A mark is at least this share of the letter's height tall or wide (2 px at least): a
    /// dithered or noisy scan's specks are smaller.
    static let leastMark = 0.12
    /// A piece of ink is a letter when at least this share of the word's median piece tall.
    static let fullLetter = 0.7
    /// A word's box is at most this many times its median piece of ink tall: a word from an
    /// ascender's top to a descender's foot is about 1.8 times its x-height; a box twice that
    /// took in ink of the lines around it.
    static let tallestWord = 2.4

    private static func median(_ values: [Int]) -> Int? {
        values.isEmpty ? nil : values.sorted()[values.count / 2]
    }

    /// A word to read again: where it is in the blocks and the part of the page to read (the
    /// word and the marks over it).
    package struct Word: Equatable {
        package var place: WordCombination.WordPath
        package var region: RawRect
        /// How many of its letters have two marks over them.
        package var umlauts: Int
        package init(place: WordCombination.WordPath, region: RawRect, umlauts: Int) {
            self.place = place; self.region = region; self.umlauts = umlauts
        }
    }

    /// The words of `blocks` whose ink (`components`: the boxes of the thresholded page's
    /// connected components) has marks over its letters that their reading does not explain.
    package static func words(in blocks: [RawBlock], components: [RawRect]) -> [Word] {
        let grid = DotLeaders.ComponentGrid(components)
        let allWords = RawBlock.allWords(blocks).map(\.rect)
        return blocks.wordPaths.compactMap { place in
            let word = blocks[word: place]
            // Words wider than tall: a word printed turned is no name's.
            guard isWord(word.text), word.rect.width >= word.rect.height,
                  // Asked again, for the few words it finds, without ink in other words' boxes
                  // (a receipt's tight lines: the foot of a letter of the line above).
                  unexplainedMarks(over: word, grid: grid) != nil,
                  let marks = unexplainedMarks(over: word, grid: grid,
                                               others: allWords.filter { $0 != word.rect && $0.overlaps(reach(of: word.rect)) })
            else { return nil }
            return Word(place: place, region: marks.region, umlauts: marks.umlauts)
        }
    }

    /// Whether `text` is a word of two letters or more, as a name or a place is: letters, with
    /// hyphens or apostrophes between them and marks before or after them ("(Pefias", "Saarbriicken,";
    /// not "bolejko@camk.edu.pl" or "RTE-1").
    static func isWord(_ text: String) -> Bool {
        let core = text.drop { !$0.isLetter && !$0.isNumber }.reversed().drop { !$0.isLetter && !$0.isNumber }
        return core.filter(\.isLetter).count >= 2 && core.allSatisfy { $0.isLetter || "-'’".contains($0) }
    }

    /// Where a word's marks may be: its box and half its height above it (an accent over a
    /// capital may stand above the box).
    static func reach(of box: RawRect) -> RawRect {
        RawRect(left: box.left, top: box.top - box.height / 2, right: box.right, bottom: box.bottom)
    }

    /// The word's box with the marks over its letters, and how many letters have two, when some
    /// are no reading's dots; nil otherwise. Ink centred in one of `others` (other words'
    /// boxes) is theirs.
    static func unexplainedMarks(over word: RawWord, grid: DotLeaders.ComponentGrid, others: [RawRect] = []) -> (region: RawRect, umlauts: Int)? {
        let box = word.rect
        guard box.height > 0 else { return nil }
        let ink = grid.centred(in: reach(of: box)).filter { piece in !others.contains { $0.contains(centreOf: piece) } }
        // The word's letters, pieces of a letter left out (a dithered "a" is its stroke and its
        // bowl): its ink at least ``fullLetter`` of the median's height. A mark stands above
        // the letters' median top (the x-height, or a capitals' word's cap height).
        let pieces = ink.filter { box.contains(centreOf: $0) }
        guard let median = median(pieces.map(\.height)) else { return nil }
        let letters = pieces.filter { Double($0.height) >= fullLetter * Double(median) }
        guard let top = self.median(letters.map(\.top)), Double(box.height) <= tallestWord * Double(median) else { return nil }
        var marksOver: [Int: [RawRect]] = [:]  // Letter index -> the marks standing over it.
        for mark in ink where mark.bottom <= top {
            let x = (mark.left + mark.right) / 2
            // The nearest letter under the mark, the mark clear of it, small beside it and no speck.
            let under = letters.indices.filter { i in
                let letter = letters[i], least = max(2, Int((leastMark * Double(letter.height)).rounded()))
                return x >= letter.left && x < letter.right && mark.bottom <= letter.top
                    && Double(letter.top - mark.bottom) <= markGap * Double(letter.height)
                    && Double(mark.height) <= markHeight * Double(letter.height) && mark.width < letter.width * 2 + 2
                    && max(mark.width, mark.height) >= least
            }
            guard let nearest = under.min(by: { letters[$0].top < letters[$1].top }) else { continue }
            marksOver[nearest, default: []].append(mark)
        }
        // Two marks over one letter are an umlaut ("ü" read "ii" has as many dots as the reading's
        // i's, but over one letter); else each of the reading's i's and j's explains one mark.
        let marks = marksOver.values.flatMap { $0 }
        let dotted = word.text.filter { "ij;".contains($0) }.count
        let umlauts = marksOver.values.filter { $0.count >= 2 }.count
        guard umlauts > 0 || marks.count > dotted else { return nil }
        return (WordCombination.bounds([box] + marks)!, umlauts)
    }

    /// Whether `reading`, the word read again by an accented letters' model, is `text` (the
    /// English reading) with accented letters in the places of one or two of its characters
    /// each, and at least one of them, every other character as read; and with as many letters
    /// with a diaeresis as the ink has `umlauts` (one mark over a letter is no umlaut).
    package static func keeps(_ reading: String, over text: String, umlauts: Int) -> Bool {
        let r = Array(reading), e = Array(text)
        guard r.contains(where: isAccented), r.filter(hasDiaeresis).count == umlauts else { return false }
        // Whether r[i...] matches e[j...]; an accented letter takes one or two characters.
        func matches(_ i: Int, _ j: Int) -> Bool {
            if i == r.count { return j == e.count }
            if isAccented(r[i]) {
                return (1...2).contains { j + $0 <= e.count && matches(i + 1, j + $0) }
            }
            return j < e.count && r[i] == e[j] && matches(i + 1, j + 1)
        }
        return matches(0, 0)
    }

    /// Whether `c` carries a diaeresis ("ü", "Ä", "ï").
    static func hasDiaeresis(_ c: Character) -> Bool {
        String(c).decomposedStringWithCanonicalMapping.unicodeScalars.contains { $0 == "\u{0308}" }
    }

    /// Whether `c` is a Latin letter with an accent: an ASCII letter and combining marks
    /// ("é", "Ñ", "ü"; not "ß" or "æ").
    package static func isAccented(_ c: Character) -> Bool {
        let scalars = Array(String(c).decomposedStringWithCanonicalMapping.unicodeScalars)
        guard scalars.count >= 2, scalars[0].isASCII, scalars[0].properties.isAlphabetic else { return false }
        return scalars.dropFirst().allSatisfy { $0.properties.generalCategory == .nonspacingMark }
    }
}
