/// Text set on its side in an upright page, and the parts of the page to read turned.
///
/// A statistical table's column heads are often printed turned a quarter ("Projected
/// Population for 2012-13 (In lakhs)" running up the page). Tesseract's layout analysis does not
/// take them for vertical lines (``TurnedLines`` is about the lines it does take so): it cuts
/// across them, and reads slices of the turned letters as short words of no language ("§",
/// "SB)", "SE/9RSS|/F5e5\\") with low confidence, as plain `tesseract` does. Such words come in
/// a crowd, one under another. Cropped and turned upright, the same part of the page reads word
/// for word. So a crowd of doubtful words (``regions(in:rules:width:height:)``) whose letters
/// are wider than tall, as turned letters are (``turned(_:letters:)``), is read turned each
/// way, and the surer reading (``keeps(_:over:)``) replaces them; text that is no more upright
/// turned than it was (a fax's noise, a photo's texture) reads no surer turned, and stays.
package enum SidewaysText {
    /// A word read with less confidence than this is doubtful.
    package static let doubtful: Float = 0.6
    /// Doubtful words this many of the page's letter heights apart side by side, or closer, are
    /// one crowd (the heads of neighbouring columns)...
    package static let reachAcross = 2.0
    /// ...and this many above one another (the slices of one head).
    package static let reachDown = 1.0
    /// A ruling line at most this many letter heights beyond a crowd bounds its cell: the part
    /// read reaches out to it, since a head turned fills its cell and its words' ends may lie
    /// beyond the slices read doubtfully (without rules: half a letter height of page).
    package static let ruleReach = 4.0
    /// A crowd read turned holds at least this many doubtful words...
    package static let minimumWords = 6
    /// ...which are at least this share of the words in its rectangle.
    package static let doubtfulShare = 0.6
    /// The page's letter height: the median height of words of two or more characters read
    /// with at least this confidence, when there are at least ``measuredWords`` of them.
    static let sure: Float = 0.8
    static let measuredWords = 5
    /// A crowd is read turned only where at least this share of the letters in it (the
    /// thresholded image's components a letter's size) are wider than tall: Latin letters and
    /// digits are taller than wide, or as tall, and turned a quarter they are wider (the dev
    /// half's turned heads: 81% and 85% of their letters; the other crowds of doubtful words
    /// there: 0-12%, and 50% and 75% of fewer than ``minimumLetters``)...
    package static let wideShare = 0.5
    /// ...and it holds at least this many letters (a few words' worth).
    package static let minimumLetters = 20
    /// A letter's sides are within these factors of the page's letter height (no specks, rules
    /// or pictures).
    static let letterSides = 0.25...2.0

    /// A turned reading is kept only when its words are at least this confident on average...
    package static let convincing: Float = 0.75
    /// ...and this much more confident than the doubtful words it replaces.
    package static let gain: Float = 0.2

    /// A part of the page to read turned: the doubtful words there as first read, the other
    /// words there (which stay unless a surer turned word covers them), and the rectangle read.
    package struct Region {
        package var rect: RawRect
        package var doubtfulWords: [RawWord]
        package var otherWords: [RawWord]
        /// The page's letter height, in pixels.
        package var letterHeight: Int
    }

    /// The parts of a `width` x `height` page to read turned, top to bottom: each crowd of at
    /// least ``minimumWords`` doubtful words (each within ``reachAcross`` and ``reachDown``
    /// letter heights of another) that are at least ``doubtfulShare`` of the words in its
    /// bounds; read out to the page's `rules` around it (``ruleReach``). Empty when there are
    /// none or the page has too few sure words to tell a letter's height.
    package static func regions(in blocks: [RawBlock], rules: [RawRect] = [], width: Int, height: Int) -> [Region] {
        let words = RawBlock.wordsWithText(blocks)
        let heights = words.filter { $0.confidence >= sure && $0.text.count >= 2 }.map(\.rect.height).sorted()
        guard heights.count >= measuredWords else { return [] }
        let letter = Double(heights[heights.count / 2])
        let doubtfulWords = words.filter { $0.confidence < doubtful }
        let page = RawRect(left: 0, top: 0, right: width, bottom: height)
        var regions: [Region] = []
        for group in RawRect.groups(doubtfulWords.map(\.rect), across: Int(reachAcross * letter), down: Int(reachDown * letter))
        where group.count >= minimumWords {
            let bounds = WordCombination.bounds(group.map { doubtfulWords[$0].rect })!
            let inside = words.filter { bounds.contains(centreOf: $0.rect) }
            let doubtfulInside = inside.filter { $0.confidence < doubtful }
            guard Double(doubtfulInside.count) >= doubtfulShare * Double(inside.count) else { continue }
            let rect = reachingRules(bounds.padded(Int((letter / 2).rounded(.up)), within: page), from: bounds, rules: rules,
                                     reach: Int(ruleReach * letter))
            regions.append(Region(rect: rect, doubtfulWords: doubtfulInside,
                                  otherWords: words.filter { $0.confidence >= doubtful && rect.overlaps($0.rect) }, letterHeight: Int(letter)))
        }
        return regions.sorted { ($0.rect.top, $0.rect.left) < ($1.rect.top, $1.rect.left) }
    }

    /// The regions of `regions` whose `letters` (the thresholded image's component boxes) look
    /// turned: at least ``minimumLetters`` of them a letter's size, at least ``wideShare`` of
    /// those wider than tall.
    package static func turned(_ regions: [Region], letters: [RawRect]) -> [Region] {
        regions.filter { region in
            let sides = letterSides.lowerBound * Double(region.letterHeight)...letterSides.upperBound * Double(region.letterHeight)
            let inside = letters.filter {
                region.rect.contains(centreOf: $0) && sides.contains(Double($0.width)) && sides.contains(Double($0.height))
            }
            return inside.count >= minimumLetters && Double(inside.filter { $0.width > $0.height }.count) >= wideShare * Double(inside.count)
        }
    }

    /// `padded` (`bounds` with a margin) with each side moved out to the nearest ruling line of
    /// `rules` at most `reach` pixels beyond `bounds` on that side, across from it.
    static func reachingRules(_ padded: RawRect, from bounds: RawRect, rules: [RawRect], reach: Int) -> RawRect {
        let across = rules.filter { $0.width > $0.height && $0.left < bounds.right && bounds.left < $0.right }
        let down = rules.filter { $0.height > $0.width && $0.top < bounds.bottom && bounds.top < $0.bottom }
        var rect = padded
        if let above = across.filter({ $0.bottom <= bounds.top && bounds.top - $0.bottom <= reach }).map(\.bottom).max() { rect.top = min(rect.top, above) }
        if let below = across.filter({ $0.top >= bounds.bottom && $0.top - bounds.bottom <= reach }).map(\.top).min() { rect.bottom = max(rect.bottom, below) }
        if let left = down.filter({ $0.right <= bounds.left && bounds.left - $0.right <= reach }).map(\.right).max() { rect.left = min(rect.left, left) }
        if let right = down.filter({ $0.left >= bounds.right && $0.left - bounds.right <= reach }).map(\.left).min() { rect.right = max(rect.right, right) }
        return rect
    }

    /// A word of the first reading at least this share of whose box lies under turned words is
    /// what they read again (a slice of turned letters); one mostly clear of them (a head set
    /// across, read doubtfully, "Production") is not.
    package static let coverShare = 0.25

    /// The words of `reading` (a region read turned, in the page's pixels) that cover some of
    /// the region's doubtful words, none of its other words read at least as surely (a head set
    /// across, beside the turned ones, reads as slices turned; a slice read surely by chance,
    /// "ONS", gives way; what the turned reading finds between the slices is noise), and no
    /// word that they do not cover (``covered(by:in:)``), which stays.
    package static func words(of reading: [RawBlock], in region: Region) -> [RawBlock] {
        let candidates = RawBlock.keepingWords(of: reading) { word in
            !word.text.allSatisfy(\.isWhitespace) && region.doubtfulWords.contains { word.rect.overlaps($0.rect) }
                && !region.otherWords.contains { word.rect.overlaps($0.rect) && $0.confidence >= word.confidence }
        }
        let replaced = covered(by: candidates, in: region).map(\.rect)
        let staying = (region.doubtfulWords + region.otherWords).map(\.rect).filter { !replaced.contains($0) }
        return RawBlock.keepingWords(of: candidates) { word in !staying.contains { word.rect.overlaps($0) } }
    }

    /// The first reading's words of `region` with at least ``coverShare`` of their box under
    /// the words of `turned`: what those replace.
    package static func covered(by turned: [RawBlock], in region: Region) -> [RawWord] {
        let read = RawBlock.wordsWithText(turned).map(\.rect)
        return (region.doubtfulWords + region.otherWords).filter { word in
            let under = read.reduce(0) { area, rect in
                area + max(0, min(rect.right, word.rect.right) - max(rect.left, word.rect.left))
                    * max(0, min(rect.bottom, word.rect.bottom) - max(rect.top, word.rect.top))
            }
            return Double(under) >= coverShare * Double(word.rect.width * word.rect.height)
        }
    }

    /// Whether a region's turned reading (``words(of:in:)``) replaces the words it covers: its
    /// words at least ``convincing`` on average and ``gain`` surer than those, and with at
    /// least as many letters and digits (the slices of a turned head hold fewer than its
    /// words; a receipt's column heads beside a handwritten note, read turned, gave one sure
    /// "|" over its doubtful "Qty", "RSP" and "170.00").
    package static func keeps(_ turned: [RawBlock], over region: Region) -> Bool {
        let read = RawBlock.wordsWithText(turned)
        let replaced = covered(by: turned, in: region)
        let mean = RawWord.meanConfidence(read)
        func characters(_ words: [RawWord]) -> Int { words.reduce(0) { $0 + $1.text.filter { $0.isLetter || $0.isNumber }.count } }
        return !read.isEmpty && mean >= convincing && mean >= RawWord.meanConfidence(replaced) + gain
            && characters(read) >= characters(replaced)
    }

    /// `blocks` without the words `turned` covers (``covered(by:in:)``, matched by their boxes;
    /// lines, paragraphs and text blocks they leave empty go too; blocks without text, a
    /// picture's, stay), and with `turned` in their place: each of its blocks after the blocks
    /// that start above it.
    package static func replacing(_ region: Region, with turned: [RawBlock], in blocks: [RawBlock]) -> [RawBlock] {
        let gone = covered(by: turned, in: region).map(\.rect)
        var kept = blocks.flatMap { block in
            RawBlock.wordsWithText([block]).isEmpty ? [block]
                : RawBlock.keepingWords(of: [block]) { $0.text.allSatisfy(\.isWhitespace) || !gone.contains($0.rect) }
        }
        for block in turned {
            kept.insert(block, at: kept.firstIndex { $0.rect.top > block.rect.top } ?? kept.endIndex)
        }
        return kept
    }
}

extension RawBlock {
    /// This block read from an image turned `quarterTurns` (1 or 3) clockwise from a `width` x
    /// `height` one, in that unturned image's pixels.
    package func unturned(_ quarterTurns: Int, width: Int, height: Int) -> RawBlock {
        quarterTurns % 4 == 1
            ? mapped(rect: { RawRect(left: $0.top, top: height - $0.right, right: $0.bottom, bottom: height - $0.left) },
                     point: { ($1, height - 1 - $0) })
            : mapped(rect: { RawRect(left: width - $0.bottom, top: $0.left, right: width - $0.top, bottom: $0.right) },
                     point: { (width - 1 - $1, $0) })
    }
}
