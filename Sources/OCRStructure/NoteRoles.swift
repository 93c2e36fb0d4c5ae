/// Captions and footnotes among a page's paragraphs: what a reader sets apart from the running
/// text although it is set as paragraphs.
///
/// - A caption starts with a label and a number (`Table 2`, `Figure 3.1`, `Fig. 4`, `Exhibit B`,
///   `TABLE IV`) and either sets the number off (`Table 2:`, `Figure 3. `, `Table 1 -`), or is in
///   capitals, or stands right above or below a table or picture. Prose that names a table
///   ("Table 2 shows ...") does none of these.
/// - A footnote is set smaller than the page's body, under all of the page's body text beside it,
///   and starts with a note's marker (`1`, `*`, `†`, `a`, `(2)`, `1See` with the marker run into
///   its first word); what follows it as small at the foot of the page goes on with it. A table's
///   notes (`Note:`, `Source:`, or a marker, `(:)` of a key to its symbols among them) right
///   under it, or stacked under one another, are notes at any size, whatever is below them; its
///   `Source:` also under a few lines no larger than itself, and cut from a legend or prose
///   Tesseract ran it on from.
///
/// Captions are in `NoteRoles+Captions.swift`, footnotes in `NoteRoles+Footnotes.swift`.
struct NoteRoles {
    let page: PageLines
    /// Tables' and pictures' boxes: what captions name and notes are under.
    let targets: [PageBox]
    /// Lines that are no body text, whatever they say: those where running headers and footers
    /// are looked for (`RunningText.Bands`).
    let bodyExcluded: Set<Int>

    /// Type smaller than this share of the body's is a note's.
    static let smallTypeRatio = 0.9
    /// How far from a table or picture (in body line heights) its caption or note may stand.
    static let reach = 3

    /// `elements` with captions and footnotes given their roles (a list whose items are
    /// footnotes becomes one footnote per item).
    func relabeled(_ elements: [(order: Int, element: ParagraphRoles.Element)]) -> [(order: Int, element: ParagraphRoles.Element)] {
        var out: [(order: Int, element: ParagraphRoles.Element)] = []
        var lastFootnote: PageBox?  // the footnote just before, when the last element was one
        for (start, element) in elements {
            var order = start
            switch element {
            case .done(.paragraph(let whole)):
                // A caption Tesseract ran on from the paragraph above it starts a line of it.
                var block = whole
                if let (before, caption) = splitAtCaption(whole) {
                    out.append((before.order, .done(.paragraph(before.text))))
                    (order, block) = (caption.order, caption.text)
                } else if !isFootnote(whole, after: lastFootnote), let (before, note) = splitAtNoteLabel(whole),
                          isFootnote(note.text, after: nil) {
                    // A table's `Source:` line Tesseract ran on from the legend or prose above it.
                    out.append((before.order, .done(.paragraph(before.text))))
                    (order, block) = (note.order, note.text)
                }
                if isCaption(block) {
                    out.append((order, .done(.caption(block))))
                    lastFootnote = nil
                } else if isFootnote(block, after: lastFootnote) {
                    out += notes(in: block, order: order).map { ($0.order, .done(.footnote($0.note))) }
                    lastFootnote = block.box
                } else {
                    out.append((order, element))
                    lastFootnote = nil
                }
            case .done(.table(let table)):
                // A caption set in line with the columns is read as the table's first row.
                if let (caption, rest) = Self.captionRow(of: table) {
                    out.append((order, .done(.caption(caption))))
                    out.append((order, .done(.table(rest))))
                } else {
                    out.append((order, element))
                }
                lastFootnote = nil
            case .heading(let candidate):
                // A caption set in bold, or a table's `Source: ...` standing alone in title case.
                let block = TextBlock(text: candidate.text, box: candidate.box)
                let labelled = candidate.text.split(separator: " ").first.map { Self.isNoteLabel(String($0)) } ?? false
                if isCaption(block) {
                    out.append((order, .done(.caption(block))))
                    lastFootnote = nil
                } else if labelled, isFootnote(block, after: lastFootnote) {
                    out.append((order, .done(.footnote(block))))
                    lastFootnote = block.box
                } else {
                    out.append((order, element))
                    lastFootnote = nil
                }
            case .done(.list(let list)) where isSmall(list.box) && isAtFoot(list.box):
                // Notes numbered `1.` or `(a)` read as a list: each item its own note.
                for (index, item) in list.items.enumerated() {
                    out.append((order + index, .done(.footnote(TextBlock(text: item.marker + " " + item.text, box: item.box)))))
                }
                lastFootnote = list.box
            default:
                out.append((order, element))
                lastFootnote = nil
            }
        }
        return out
    }

    /// Whether the lines in `box` are set smaller than the page's body.
    func isSmall(_ box: PageBox) -> Bool {
        let sizes = lines(in: box).map(\.typeSize)
        guard let size = PageLines.median(sizes) else { return false }
        return Double(size) <= Self.smallTypeRatio * Double(page.bodyTypeSize)
    }

    /// Whether no line of body text (three words or more, not set small) stands below `box`
    /// across from it.
    func isAtFoot(_ box: PageBox) -> Bool {
        !page.lines.contains { line in
            !bodyExcluded.contains(line.order) && line.words.count >= 3 && line.box.y >= box.maxY - page.bodyHeight / 2
                && min(line.box.maxX, box.maxX) > max(line.box.x, box.x)
                && Double(line.typeSize) > Self.smallTypeRatio * Double(page.bodyTypeSize)
        }
    }

    /// Whether `box` starts right under a table or picture, across from it.
    func isUnder(_ box: PageBox) -> Bool {
        targets.contains { Self.isAcross(box, $0) && isWithinReach(box.y - $0.maxY) }
    }

    /// Whether `a` and `b` share some of their width.
    static func isAcross(_ a: PageBox, _ b: PageBox) -> Bool {
        min(a.maxX, b.maxX) > max(a.x, b.x)
    }

    /// Whether a gap (negative: an overlap) between a table or picture and what is beside it is
    /// within ``reach`` body lines, overlapping by half a line at most.
    func isWithinReach(_ gap: Int) -> Bool {
        (-page.bodyHeight / 2...Self.reach * page.bodyHeight).contains(gap)
    }

    /// The page's lines whose middle is inside `box`.
    func lines(in box: PageBox) -> [PageLine] {
        page.lines.filter { box.contains(x: $0.box.midX, y: $0.box.midY) }
    }
}
