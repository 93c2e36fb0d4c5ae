import OCRBasics
import OCRWire

/// An amount's point read into the next digit's box, found by its own ink.
///
/// In a table of figures with one decimal, Tesseract (plain `tesseract` too) reads "4.7" as "47"
/// and "2.5" as "25": the point is there, as dark as the digits, but the recogniser takes it
/// for part of the 7 (whose box then starts at the point). ``DroppedPoints`` cannot see it: a
/// number of two digits has one step between them, nothing to compare it with. The word's own
/// ink can: thresholded halfway between its paper and its ink, a point is a small mark on the
/// digits' baseline, between two digits that each stand apart. So a number of digits, on a
/// page that prints amounts with points, whose box holds one such mark between its digits gets
/// the point there ("47" -> "4.7").
///
/// A mark counts when it is at least 2 pixels wide and tall (a pixel or a one-pixel line is
/// what a 150-dpi digit's stroke leaves behind when the threshold breaks it), at most
/// ``markHeight`` of the word's height tall and ``markWidth`` wide, lies in its lower part (its
/// top below ``markTop``), ends within ``baselineReach`` of the digits' bottom, is as dark as
/// they are (``inkLevel``) and has a digit on either side with paper between (``paperAround``);
/// and the word's other marks are exactly its digits (each at least ``digitHeight`` of its
/// height tall), so that the point's place among them is certain.
/// Chosen on the real-layout corpus's dev half: on its upright pages with pointed amounts, 6 of
/// 159 numbers of digits held such a mark, every one a point the truth has; on its 150-dpi page
/// turned a quarter, eight more, pieces of digits 10 pixels tall broken by the threshold, until
/// the size, paper and ink conditions (which cost one true point, a 72-dpi "2.5" 1 pixel wide).
package enum PointsInDigits {
    /// The page's words read as amounts with a point needed before a point is looked for.
    package static let pointedAmounts = 2
    /// A point is at most this share of the word's height tall...
    static let markHeight = 0.3
    /// ...and this share of it wide...
    static let markWidth = 0.4
    /// ...its top below this share of the word's height from the word's top...
    static let markTop = 0.55
    /// ...and its bottom within this share of the height of the digits' bottom.
    static let baselineReach = 0.2
    /// A point has paper on either side, this share of the word's height wide (2 pixels at
    /// least): a digit broken by the threshold leaves pieces that touch it (the 150-dpi
    /// firearm-checks table's "452", "13" read "4.52", "1.3" without this).
    static let paperAround = 0.1
    /// A point is as dark as the digits: its darkest pixel within this share of the contrast
    /// from their ink (a faint speck by a 150-dpi "262" is not).
    static let inkLevel = 0.25
    /// A digit's mark is at least this share of the word's height tall.
    static let digitHeight = 0.5
    /// Words with less contrast than this (gray levels) are not judged.
    static let leastContrast = 40

    /// Whether `text` holds an amount with a point ("4.7", "72.9", "RM12.80").
    static func isPointed(_ text: String) -> Bool {
        let c = Array(text)
        return c.indices.contains { i in c[i] == "." && i > 0 && c[i - 1].isASCIIDigit && i + 1 < c.count && c[i + 1].isASCIIDigit }
    }

    /// Where in `word` (a number of digits) its image, `gray` (the page's pixels inside the
    /// word's box), shows a point: the number of digits before it, and the point's box in the
    /// grid's pixels; nil when it shows none, or not certainly.
    package static func point(in word: RawWord, gray: GrayGrid) -> (offset: Int, box: RawRect)? {
        let digits = word.text
        guard (2...DroppedPoints.mostDigits).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
              gray.width > 0, gray.height > 0 else { return nil }
        let paper = gray.level(share: 0.9), ink = gray.level(share: 0.03)
        guard paper - ink >= leastContrast else { return nil }
        let components = gray.darkComponents(below: UInt8((paper + ink) / 2))
        let marks = components.map(\.box)
        let height = Double(gray.height)
        let tall = marks.filter { Double($0.height) >= digitHeight * height }
        guard tall.count == digits.count, let bottom = marks.map(\.bottom).max() else { return nil }
        let gap = max(2, Int((paperAround * height).rounded()))
        let darkEnough = Double(ink) + inkLevel * Double(paper - ink)
        let points = components.filter { component in
            let mark = component.box
            return mark.width >= 2 && mark.height >= 2
                && Double(mark.height) <= markHeight * height && Double(mark.width) <= markWidth * height
                && Double(mark.top) >= markTop * height && Double(bottom - mark.bottom) <= baselineReach * height
                && Double(component.darkest) <= darkEnough
                && tall.contains { $0.right <= mark.left - gap } && tall.contains { $0.left >= mark.right + gap }
                && !tall.contains { $0.right > mark.left - gap && $0.left < mark.right + gap }
        }
        guard points.count == 1, let point = points.first?.box else { return nil }
        return (tall.count { $0.right <= point.left }, point)
    }

    /// Whether the word at `index` of a line's `words` has a month's name beside it: a day or a
    /// year, no amount.
    static func isBesideMonth(_ index: Int, in words: [RawWord]) -> Bool {
        (index > 0 && MonthNames.isMonth(words[index - 1].text)) || (index + 1 < words.count && MonthNames.isMonth(words[index + 1].text))
    }

    /// `blocks` with a point put into each number of digits whose image, through `image` (the
    /// page's pixels inside a rectangle, as gray), shows one between its digits (none on a page
    /// with fewer than ``pointedAmounts`` amounts read with points, nor in a number beside a
    /// month's name: a day or a year, "25 July 2008"); and how many words changed.
    package static func read(_ blocks: [RawBlock], image: (RawRect) throws(OCRError) -> GrayGrid) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        guard RawBlock.allWords(blocks).count(where: { isPointed($0.text) }) >= pointedAmounts else { return (blocks, 0) }
        return try RawBlock.replacingLines(in: blocks) { (line: RawLine) throws(OCRError) -> (line: RawLine, changed: Int)? in
            var line = line
            var changed = 0
            for (w, word) in line.words.enumerated() where word.text.count >= 2 && word.text.allSatisfy(\.isASCIIDigit) {
                if isBesideMonth(w, in: line.words) { continue }
                let gray = try image(word.rect)
                // (a word cut by the page's edge is not judged: its marks' places would be off)
                guard gray.width == word.rect.width, gray.height == word.rect.height, let found = point(in: word, gray: gray) else { continue }
                let box = RawRect(left: word.rect.left + found.box.left, top: word.rect.top + found.box.top,
                                  right: word.rect.left + found.box.right, bottom: word.rect.top + found.box.bottom)
                line.words[w] = DroppedPoints.pointed(word, at: found.offset, box: box)
                changed += 1
            }
            return changed == 0 ? nil : (line, changed)
        }
    }
}
