import OCRWire

/// A colon the reading left out, put back where the gray page shows its two dots.
///
/// A thermal receipt's colons fade first: "Total Qty:" is read "Total Qty" and "Salesperson :"
/// "Salesperson" (plain `tesseract` alike), their dots a few dozen gray levels off the paper and
/// gone from Tesseract's thresholded image. The gray page still shows them: in the gap after a
/// word, two small marks one above the other, the lower on the line's baseline and the upper
/// about half a letter higher, and nothing else. Where a gap holds exactly that, a colon is put
/// back: joined to the word it follows when it sits within ``joiningGap`` letter heights of it,
/// else as a word of its own. A speck of noise, the rest of a letter Tesseract's box cut short
/// (it touches the gap's side), a mark only as dark as the paper's grain, or a pair side by side
/// or too close together is no colon.
///
/// Where Tesseract kept a trace of the colon, it reads it as some other mark: a lone "»", "’",
/// "-" or "°" between the word and the next, or a "." or "-" at the word's end ("Time." for
/// "Time:"). Such a mark (``isStrayMark``) is no word of its own to the gap: where the gap with it
/// holds a colon's two dots and nothing else, the colon takes its place.
package enum FaintColons {
    /// A gap is looked at up to this many letter heights past its word (the line's last word:
    /// ``lastReach``).
    static let reach = 2.0
    static let lastReach = 1.5
    /// A gap wider than ``reach`` (after the line's last word, ``lastReach``) is looked at whole,
    /// up to this many letter heights, where its first ``reach`` holds no colon (a colon set in a
    /// column of them).
    static let tabReach = 6.0
    /// Columns left out at either side of a gap (a letter's edge blurred into it).
    static let edge = 2
    /// A dot is at most this share of the letter height, tall and wide, and one pixel (a bold
    /// colon's dot at 13 px letters is 4 px: blur and JPEG widen a mark by a pixel)...
    static let dotSize = 0.3
    /// ...and round: at most this many times as tall as it is wide, and two pixels (a faint dot
    /// may be one pixel wide and three tall; a semicolon's tail is more than twice as tall).
    static let dotAspect = 1.5
    /// A gap reaches this many letter heights above the baseline (a line of lower-case letters
    /// gives a letter height near their x-height, and a colon's upper dot sits there); a mark
    /// touching its top reaches in from above and is left out.
    static let headroom = 1.25
    /// The smaller dot is at least this share of the larger, across or down.
    static let dotLikeness = 0.4
    /// Where the dots' centres lie, in letter heights above the baseline.
    static let lowerDot = -0.1...0.3
    static let upperDot = 0.35...1.0
    /// The upper dot's centre this many letter heights above the lower's...
    static let spacing = 0.35...0.95
    /// ...and at most this many to either side of it.
    static let drift = 0.2
    /// A pixel darker than the paper by this share of the paper-to-ink contrast (and at least
    /// ``leastStep`` levels) belongs to a mark...
    static let markStep = 0.1
    static let leastStep = 15
    /// ...and a mark counts where its darkest pixel is darker than the paper by at least this
    /// share (a fainter one is the paper's grain).
    static let dotStep = 0.2
    /// Lines with less contrast than this (gray levels) are not judged.
    static let leastContrast = 40
    /// Where the reading saw nothing between two words, a colon put back leaves at least this
    /// many letter heights before the next (a dot-matrix letter's first column of dots, left
    /// out of its word's box, is no colon).
    static let clearance = 0.15
    /// A colon this close to the word before it (in letter heights) is joined to it.
    static let joiningGap = 0.3

    /// A text line's letters (``RawLine/letters``: their height and baseline) and the part of
    /// the page a colon after any of its words lies in.
    package struct Band: Equatable {
        package var block: Int, paragraph: Int, line: Int
        package var letterHeight: Int, baseline: Int
        package var rect: RawRect
    }

    /// The lines of `blocks` (on a page `width` pixels wide) that have at least two letters or
    /// digits, as bands to look for colons in.
    package static func bands(in blocks: [RawBlock], width: Int) -> [Band] {
        var bands: [Band] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.lines.enumerated() {
                    guard let (height, baseline) = line.letters, height >= 4 else { continue }
                    let right = line.words.map(\.rect.right).max()!
                    let rect = RawRect(left: max(0, line.rect.left), top: max(0, min(line.rect.top, baseline - Int(headroom * Double(height)))),
                                       right: min(width, max(line.rect.right, right + Int(tabReach * Double(height)))),
                                       bottom: max(line.rect.bottom, baseline + Int(0.2 * Double(height)) + 1))
                    bands.append(Band(block: b, paragraph: p, line: l, letterHeight: height, baseline: baseline, rect: rect))
                }
            }
        }
        return bands
    }

    /// A colon to put back.
    package struct Colon: Equatable {
        /// The word the colon follows, and the box of its two dots in the page's pixels.
        package var after: Int
        package var box: RawRect
        /// How many words after it are stray marks the colon replaces (``isStrayMark``).
        package var strays = 0
        /// Whether the word's own last symbol is a stray mark the colon replaces ("Time.").
        package var trailing = false
    }

    /// A mark a faded colon is read as: one symbol that is no letter, digit or colon.
    static func isStrayMark(_ text: Substring) -> Bool {
        text.count == 1 && text != ":" && !text.contains(where: { $0.isLetter || $0.isNumber })
    }

    /// The colons in `grid` (the page inside `band.rect`, clipped to the page) after the words
    /// of `line`: the index of the word each follows, the box of its two dots in the page's
    /// pixels, and the stray marks it replaces.
    package static func colons(in grid: GrayGrid, band: Band, line: RawLine) -> [Colon] {
        let origin = (x: band.rect.left, y: band.rect.top)
        func local(_ r: RawRect) -> RawRect {
            RawRect(left: r.left - origin.x, top: r.top - origin.y, right: r.right - origin.x, bottom: r.bottom - origin.y)
        }
        let own = grid.cropped(local(line.rect))
        guard own.width > 0 else { return [] }
        let paper = own.level(share: 0.9), ink = own.level(share: 0.03)
        guard paper - ink >= leastContrast else { return [] }
        let markLevel = UInt8(clamping: paper - max(leastStep, Int(markStep * Double(paper - ink))))
        let dotLevel = Double(paper) - dotStep * Double(paper - ink)
        let h = Double(band.letterHeight)
        let reachOfDots = Int(dotSize * h)
        /// The box of a colon's two dots, alone in the gap from `right` to `end` (page pixels)
        /// and lying on each of `replaced` (grown by a dot's size), or nil.
        func colon(from right: Int, to end: Int, replacing replaced: [RawRect]) -> RawRect? {
            let gap = RawRect(left: right + edge, top: band.baseline - Int(headroom * h),
                              right: end - edge, bottom: band.baseline + Int(0.2 * h) + 1)
            guard gap.width >= 2 else { return nil }
            let region = grid.cropped(local(gap))
            // What reaches in from above (a rule, the line above's descenders) is not in the gap,
            // nor is a speck no darker than the paper's grain.
            let marks = region.darkComponents(below: markLevel).filter { $0.box.top > 0 && Double($0.darkest) <= dotLevel }
            guard marks.count == 2, region.width == gap.width,
                  marks.allSatisfy({ m in
                      Double(max(m.box.width, m.box.height)) <= dotSize * h + 1
                          && Double(m.box.height) <= dotAspect * Double(m.box.width) + 2 && m.box.left > 0 && m.box.right < region.width
                  }) else { return nil }
            // A colon's dots are alike; a speck beside a full stop is not its upper dot.
            let sizes = marks.map { max($0.box.width, $0.box.height) }
            guard Double(sizes.min()!) >= dotLikeness * Double(sizes.max()!) else { return nil }
            // Centres in letter heights above the baseline, and across in pixels.
            let rows = marks.map { (Double(band.baseline - gap.top) - Double($0.box.top + $0.box.bottom) / 2) / h }
            let columns = marks.map { Double($0.box.left + $0.box.right) / 2 }
            let (lower, upper) = rows[0] < rows[1] ? (0, 1) : (1, 0)
            guard lowerDot.contains(rows[lower]), upperDot.contains(rows[upper]), spacing.contains(rows[upper] - rows[lower]),
                  abs(columns[0] - columns[1]) <= drift * h else { return nil }
            let box = WordCombination.bounds(marks.map {
                RawRect(left: gap.left + $0.box.left, top: gap.top + $0.box.top, right: gap.left + $0.box.right, bottom: gap.top + $0.box.bottom)
            })!
            let onTheDots = replaced.allSatisfy { r in
                let (x, y) = ((r.left + r.right) / 2, (r.top + r.bottom) / 2)
                return x >= box.left - reachOfDots && x <= box.right + reachOfDots && y >= box.top - reachOfDots && y <= box.bottom + reachOfDots
            }
            return onTheDots ? box : nil
        }
        var found: [Colon] = []
        for (i, word) in line.words.enumerated() where !isStrayMark(word.text[...]) {
            // The stray marks after the word, and the word after them.
            var strays = 0
            while i + 1 + strays < line.words.count, isStrayMark(line.words[i + 1 + strays].text[...]) { strays += 1 }
            let next = i + 1 + strays < line.words.count ? line.words[i + 1 + strays] : nil
            guard !word.text.hasSuffix(":"), !(next?.text.hasPrefix(":") ?? false) else { continue }
            let strayBoxes = line.words[(i + 1)..<(i + 1 + strays)].map(\.rect)
            let strayRight = strayBoxes.map(\.right).max() ?? word.rect.right
            func end(after right: Int) -> Int {
                strays == 0 ? min(next?.rect.left ?? right + Int(lastReach * h), right + Int(reach * h))
                    : min(next?.rect.left ?? strayRight + Int(0.5 * h), max(strayRight + Int(0.5 * h), right + Int(reach * h)))
            }
            // A stray mark at the word's end ("Time.") is the gap's too, where its box lies past
            // the letter before it; else the gap starts at the word's end ("TEL." then a colon).
            let symbols = word.symbols
            if symbols.count >= 2, isStrayMark(word.text.suffix(1)), symbols.last!.text == String(word.text.suffix(1)),
               symbols[symbols.count - 2].text.contains(where: { $0.isLetter || $0.isNumber }),
               case let right = symbols[symbols.count - 2].rect.right, symbols.last!.rect.left >= right,
               let box = colon(from: right, to: end(after: right), replacing: strayBoxes + [symbols.last!.rect]) {
                found.append(Colon(after: i, box: box, strays: strays, trailing: true))
            } else if let box = colon(from: word.rect.right, to: end(after: word.rect.right), replacing: strayBoxes),
                      strays > 0 || Double((next?.rect.left ?? Int.max) - box.right) >= clearance * h {
                found.append(Colon(after: i, box: box, strays: strays))
            } else if strays == 0, case let far = next?.rect.left ?? band.rect.right,
                      far - word.rect.right > Int((next == nil ? lastReach : reach) * h),
                      // A tabulated colon, set in its column far from the word ("Cashier      : USER",
                      // or a form's empty field, "Address      :"): the whole gap, up to
                      // ``tabReach``, where the near part held none.
                      let box = colon(from: word.rect.right, to: min(far, word.rect.right + Int(tabReach * h)), replacing: []),
                      next == nil || Double(far - box.right) >= clearance * h {
                found.append(Colon(after: i, box: box))
            }
        }
        return found
    }

    /// `line` with a colon put back after each word `colons` names (from ``colons(in:band:line:)``),
    /// in place of the stray marks it names.
    package static func putBack(_ colons: [Colon], in line: RawLine, letterHeight: Int) -> RawLine {
        var line = line
        for colon in colons.sorted(by: { $0.after > $1.after }) {
            line.words.removeSubrange((colon.after + 1)..<(colon.after + 1 + colon.strays))
            var word = line.words[colon.after]
            if colon.trailing {
                word.text.removeLast()
                word.symbols.removeLast()
                word.rect = WordCombination.bounds(word.symbols.map(\.rect))!
                word.fromDictionary = false
            }
            let symbol = RawSymbol(text: ":", confidence: word.confidence, rect: colon.box)
            if Double(colon.box.left - word.rect.right) <= joiningGap * Double(letterHeight) {
                word.text += ":"
                word.symbols.append(symbol)
                word.rect = WordCombination.bounds([word.rect, colon.box])!
                word.fromDictionary = false
                line.words[colon.after] = word
            } else {
                line.words[colon.after] = word
                line.words.insert(RawWord(text: ":", confidence: word.confidence, rect: colon.box, symbols: [symbol]), at: colon.after + 1)
            }
        }
        return line
    }

    /// `blocks` (on a page `width` pixels wide) with each colon the gray page shows after a word
    /// put back, through `image` (the page's pixels inside a rectangle, clipped to the page, as
    /// gray), and how many colons were.
    package static func read(_ blocks: [RawBlock], width: Int, image: (RawRect) throws(OCRError) -> GrayGrid) throws(OCRError) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks
        var changed = 0
        for band in bands(in: blocks, width: width) {
            let line = blocks[band.block].paragraphs[band.paragraph].lines[band.line]
            let found = colons(in: try image(band.rect), band: band, line: line)
            guard !found.isEmpty else { continue }
            blocks[band.block].paragraphs[band.paragraph].lines[band.line] = putBack(found, in: line, letterHeight: band.letterHeight)
            changed += found.count
        }
        return (blocks, changed)
    }
}
