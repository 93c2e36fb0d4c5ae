import OCRBasics

/// Footnotes and a table's notes: marked or labelled, small at the foot of the page or right under a table.
extension NoteRoles {
    /// Words that label a note (`Note:`, `Sources.`), lower-cased, without their colon or stop.
    static let noteLabels: Set<String> = ["note", "notes", "source", "sources", "nota", "notas", "fuente", "fuentes", "quelle", "anmerkung"]

    /// Whether `block` is a note: labelled or marked, right under a table or stacked under the
    /// note `previous` (at any size); labelled or marked and small at the foot of the page; or
    /// small at the foot and going on from `previous` right above it (a line apart at most).
    func isFootnote(_ block: TextBlock, after previous: PageBox?) -> Bool {
        guard let first = block.text.split(separator: " ").first.map(String.init) else { return false }
        // Stacked under a note: `Source:` under `Note:`, the second of a table's numbered notes.
        let stacked = previous.map { block.box.y - $0.maxY <= page.bodyHeight * 3 / 2 } ?? false
        if Self.isNoteLabel(first),
           isUnder(block.box) || stacked || isSmall(block.box) && isAtFoot(block.box) || Self.isSourceLabel(first) && isUnderNotes(block.box) {
            return true
        }
        // A note is words: a marker before numbers is a chart's axis read as text.
        let letters = block.text.filter(\.isLetter).count, others = block.text.filter { !$0.isLetter && !$0.isWhitespace }.count
        // A letter as a marker comes before a sentence ("a Excludes ..."), not inside one
        // ("a lot of ...").
        let words = block.text.split(separator: " ")
        let letterMarker = first.count == 1 && first.first!.isLowercase
        let marked = Self.isNoteMarker(first) && letters > others
            && (!letterMarker || words.count >= 2 && words[1].first.map { $0.isUppercase || $0.isNumber } == true)
        // A table's notes are often set as large as its cells, which may be most of the page.
        if marked, isUnder(block.box) || stacked { return true }
        guard isSmall(block.box) else { return false }
        if marked {
            // A running footer led by its page number stands out left of the body's text.
            return isAtFoot(block.box) && block.box.x >= bodyLeft - page.bodyHeight
        }
        guard let previous else { return false }
        return block.box.y - previous.maxY <= page.bodyHeight && isAtFoot(block.box)
    }

    /// Whether `box` stands under a table or picture across from it with a few lines at most
    /// between them (ten body lines), none set larger than its own: a table's `Source:` under
    /// its key and notes, whatever Tesseract made of those. (Only for a source: a `Note:` a
    /// few lines of prose under a picture is the prose's.)
    func isUnderNotes(_ box: PageBox) -> Bool {
        guard let size = PageLines.median(lines(in: box).map(\.typeSize)) else { return false }
        return targets.contains { target in
            guard Self.isAcross(box, target), box.y > target.maxY, box.y - target.maxY <= 10 * page.bodyHeight else { return false }
            let between = page.lines.filter { $0.box.midY > target.maxY && $0.box.midY < box.y && Self.isAcross($0.box, box) }
            return between.count <= 6 && between.allSatisfy { $0.typeSize * 10 <= size * 11 }
        }
    }

    /// The notes of a footnote paragraph: a new one at each line that starts with a marker or a
    /// label where the first line starts (Tesseract reads the notes at a page's foot as one paragraph).
    func notes(in block: TextBlock, order: Int) -> [(order: Int, note: TextBlock)] {
        let lines = lines(in: block.box)
        guard let first = lines.first else { return [(order, block)] }
        var groups: [[PageLine]] = []
        for line in lines {
            let starts = Self.isNoteMarker(line.words[0].text) || Self.isNoteLabel(line.words[0].text)
            if groups.isEmpty || abs(line.box.x - first.box.x) <= page.bodyHeight / 2 && starts {
                groups.append([line])
            } else {
                groups[groups.count - 1].append(line)
            }
        }
        return groups.count == 1 ? [(order, block)] : groups.map { ($0[0].order, ParagraphRoles.textBlock($0)) }
    }

    /// `block` cut before a line other than its first that starts with a note's label in
    /// capitals (`Source:`, `NOTE:`) where the first line starts: the text before (a table's
    /// legend, a line of prose Tesseract ran on), the note from there on.
    func splitAtNoteLabel(_ block: TextBlock) -> (before: (order: Int, text: TextBlock), note: (order: Int, text: TextBlock))? {
        let lines = lines(in: block.box)
        guard lines.count >= 2,
              let cut = lines.indices.dropFirst().first(where: { index in
                  let first = lines[index].words[0].text
                  return first.first?.isUppercase == true && Self.isNoteLabel(first)
                      && abs(lines[index].box.x - lines[0].box.x) <= page.bodyHeight / 2
              }) else { return nil }
        let before = Array(lines[..<cut]), note = Array(lines[cut...])
        return ((before[0].order, ParagraphRoles.textBlock(before)), (note[0].order, ParagraphRoles.textBlock(note)))
    }

    /// `Source:`, `SOURCES.`: the label of a table's or picture's source, set off.
    static func isSourceLabel(_ token: String) -> Bool {
        isNoteLabel(token) && ["source", "sources", "fuente", "fuentes", "quelle"].contains(token.dropLast().lowercased())
    }

    /// `Note:`, `Sources.`, `NOTE:`: a note's label, set off.
    static func isNoteLabel(_ token: String) -> Bool {
        guard let last = token.last, ":.".contains(last) else { return false }
        return noteLabels.contains(token.dropLast().lowercased())
    }

    /// `1`, `12`, `*`, `**`, `†`, `‡`, `§`, `a`, `(2)`, `[3]`, `(:)`, `1.`, `a)`, or a marker run into
    /// the note's first word (`1See`, `*Excludes`, `¹Data`, `2A`). Tesseract reads a small
    /// raised `1` as `‘`, `'` or `™`, and a raised `3` as `°`: those are markers too.
    static func isNoteMarker(_ token: String) -> Bool {
        let symbols: Set<Character> = ["*", "†", "‡", "§", "¶", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁰", "‘", "'", "™", "°"]
        var core = Substring(token)
        var enclosed = false
        if core.first == "(" && core.last == ")" || core.first == "[" && core.last == "]" {
            core = core.dropFirst().dropLast()
            enclosed = true
        } else if let last = core.last, ".):".contains(last) {
            core = core.dropLast()
        }
        guard !core.isEmpty else { return false }
        // A table's key to its symbols: `(:)` not available, `(-)` nil, `(p)` provisional.
        if enclosed, core.count == 1, !core.first!.isNumber, !core.first!.isUppercase { return true }
        if core.count <= 3, core.allSatisfy(\.isASCIIDigit) { return true }
        if core.count <= 3, core.allSatisfy(symbols.contains) { return true }
        if core.count == 1, core.first!.isLowercase { return true }
        // Run into its word: digits or symbols, then a capital and a small letter.
        let marker = core.prefix { $0.isASCIIDigit || symbols.contains($0) }
        let rest = core.dropFirst(marker.count)
        guard (1...2).contains(marker.count), let initial = rest.first, initial.isUppercase else { return false }
        return rest.count == 1 ? "AI".contains(initial) : rest.dropFirst().first!.isLowercase
    }

    /// Where the page's body text starts: the left edge of its lines of three words or more
    /// (the tenth from the left, so that a stray line does not move it).
    var bodyLeft: Int {
        let starts = page.lines.filter { $0.words.count >= 3 && !bodyExcluded.contains($0.order) }.map(\.box.x).sorted()
        return starts.isEmpty ? 0 : starts[starts.count / 10]
    }
}
