/// Where on a page text was lost (``LostText``): the parts `accurate` reads again, instead of
/// the whole page twice. On a clean scan the guard fires for a halftone box or a few formulas
/// the layout analysis left out (3 of aim916's 28 pages, 2.7-4.5x plain Tesseract's CPU when
/// the whole page was read again); the text it recovers (a receipt's prices, a margin's line
/// numbers, a form's inverted cells) lies in those parts too. What they recover joins the first
/// pass's line it lies on (``WordCombination/joinsDistantLines``): a price, far right of its item.
package enum LostRegions {
    /// Lost letters this many letter heights apart, side by side, are one region (a word's
    /// letters and the words of a line).
    package static let reachAcross = 3.0
    /// ...and this many above one another (the lines of a paragraph or a column).
    package static let reachDown = 2.0
    /// Letter heights of page kept around a region's letters (Tesseract needs a margin).
    package static let margin = 1.0
    /// Regions covering more of the page than this: the page is read whole.
    package static let maximumShare = 0.5

    /// The regions around `lost` (letter boxes), and `darkBoxes` as they are, on a `width` x
    /// `height` page, top to bottom, or nil when they would cover more than ``maximumShare`` of
    /// it (or there are none). A dark box gets no paper around it: a crop's own threshold then
    /// parts a gray fill from its text, where with paper around it makes the fill ink again (a
    /// scanned footnote row shaded gray under a table read as "Sa" with a quarter of its height
    /// around it, and word for word as it is).
    package static func regions(_ lost: [RawRect], darkBoxes: [RawRect] = [], width: Int, height: Int) -> [RawRect]? {
        guard width > 0, height > 0 else { return nil }
        let page = RawRect(left: 0, top: 0, right: width, bottom: height)
        let regions = (letterGroups(lost).map { $0.rect.padded($0.pad, within: page) } + darkBoxes.map { $0.padded(0, within: page) })
            .sorted { ($0.top, $0.left) < ($1.top, $1.left) }
        let area = regions.reduce(0) { $0 + $1.width * $1.height }
        return regions.isEmpty || Double(area) > maximumShare * Double(width * height) ? nil : regions
    }

    /// The bounding boxes of `lost`'s letters joined with those within reach, each with the
    /// ``margin`` it needs (in pixels).
    package static func letterGroups(_ lost: [RawRect]) -> [(rect: RawRect, pad: Int)] {
        guard !lost.isEmpty else { return [] }
        let letterHeight = Double(lost.map(\.height).sorted()[lost.count / 2])
        return RawRect.groups(lost, across: Int(reachAcross * letterHeight), down: Int(reachDown * letterHeight)).map { group in
            (WordCombination.bounds(group.map { lost[$0] })!, Int(margin * letterHeight))
        }
    }
}

extension RawRect {
    /// This rectangle grown by `pad` on every side, within `bounds`.
    package func padded(_ pad: Int, within bounds: RawRect) -> RawRect {
        RawRect(left: max(bounds.left, left - pad), top: max(bounds.top, top - pad),
                right: min(bounds.right, right + pad), bottom: min(bounds.bottom, bottom + pad))
    }
}

extension RawBlock {
    /// This block moved `dx` right and `dy` down: a reading of a region of the page in the page's pixels.
    package func shifted(_ dx: Int, _ dy: Int) -> RawBlock {
        mapped(scale: 1, dx: dx, dy: dy)
    }

    /// This block read from an image `scale` times the page's, moved `dx` right and `dy` down,
    /// in the page's pixels (a rectangle's edges rounded outwards).
    package func mapped(scale: Double, dx: Int = 0, dy: Int = 0) -> RawBlock {
        func down(_ v: Int) -> Int { Int((Double(v) / scale).rounded(.down)) }
        func up(_ v: Int) -> Int { Int((Double(v) / scale).rounded(.up)) }
        func near(_ v: Int) -> Int { Int((Double(v) / scale).rounded()) }
        return mapped(rect: { RawRect(left: down($0.left) + dx, top: down($0.top) + dy, right: up($0.right) + dx, bottom: up($0.bottom) + dy) },
                      point: { (near($0) + dx, near($1) + dy) })
    }

    /// This block with each rectangle (its own, its paragraphs', lines', words' and symbols')
    /// passed through `rect`, and each of its lines' baseline points through `point`.
    package func mapped(rect move: (RawRect) -> RawRect, point: (Int, Int) -> (Int, Int)) -> RawBlock {
        var block = self
        block.rect = move(rect)
        for p in block.paragraphs.indices {
            block.paragraphs[p].rect = move(block.paragraphs[p].rect)
            for l in block.paragraphs[p].lines.indices {
                var line = block.paragraphs[p].lines[l]
                line.rect = move(line.rect)
                line.baseline = stride(from: 0, to: line.baseline.count - 1, by: 2).flatMap { i in
                    let (x, y) = point(line.baseline[i], line.baseline[i + 1])
                    return [x, y]
                }
                for w in line.words.indices {
                    line.words[w].rect = move(line.words[w].rect)
                    for s in line.words[w].symbols.indices { line.words[w].symbols[s].rect = move(line.words[w].symbols[s].rect) }
                }
                block.paragraphs[p].lines[l] = line
            }
        }
        return block
    }
}
