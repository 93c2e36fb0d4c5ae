import OCRBasics

/// What a page's lines are, once tables and running text are taken out: list items (by their
/// markers), heading candidates (by size, section numbers or capitals) and paragraphs (by
/// Tesseract's paragraphs), in reading order.
struct ParagraphRoles {
    /// A heading before its level is known: levels are ranked over the whole document.
    struct HeadingCandidate: Equatable {
        var text: String
        var box: PageBox
        /// Its line height over the body's (1 for headings of body size).
        var sizeRatio: Double
        /// Components of its section number (`2.1` -> 2), or nil.
        var numberingDepth: Int?
    }

    /// A page element, with headings still to be levelled.
    enum Element: Equatable {
        case heading(HeadingCandidate)
        case done(StructureElement)
    }

    let page: PageLines
    /// Characters Tesseract reads a bullet as (`•` comes out `e`, `¢`, `©`, `o`...) that start
    /// two lines or more of this page on their own: bullets here, words elsewhere.
    let misreadBullets: Set<String>
    /// Where the lines that start with a bullet (or a misreading of one) start: a line set at
    /// the same place whose first word is one or two bullet misreadings ("e«", "+") is an item
    /// of that list, its bullet read differently (Tesseract reads one bullet differently line
    /// by line).
    let bulletIndents: [Int]
    /// How many lines each of Tesseract's paragraphs has.
    let paragraphLines: [Int: Int]

    static let bulletMisreadings: Set<String> = ["e", "o", "¢", "©", "®", "«", "°", "+", "="]

    init(page: PageLines) {
        self.page = page
        var starts: [String: Int] = [:]
        for line in page.lines where line.words.count >= 2 && Self.bulletMisreadings.contains(line.words[0].text) {
            starts[line.words[0].text, default: 0] += 1
        }
        let misread = Set(starts.filter { $0.value >= 2 }.keys)
        misreadBullets = misread
        var indents = page.lines.filter { line in
            guard line.words.count >= 2, let first = line.words.first?.text else { return false }
            return misread.contains(first) || first.count == 1 && first.first.map(Self.bullets.contains) == true
        }.map(\.box.x)
        // Two lines or more starting at one place with bullet misreadings, alike or not
        // ("e" on one, "©" on the next): a list's bullets too.
        let misreadStarts = page.lines.filter { $0.words.count >= 2 && Self.isMisreadBullet($0.words[0].text) }.map(\.box.x).sorted()
        for (x, next) in zip(misreadStarts, misreadStarts.dropFirst()) where next - x <= page.bodyHeight / 2 {
            indents += [x, next]
        }
        // Sorted and distinct, so that whether a line starts at one is a binary search.
        bulletIndents = Array(Set(indents)).sorted()
        paragraphLines = page.lines.reduce(into: [:]) { counts, line in counts[line.paragraph, default: 0] += 1 }
    }

    /// Whether `line` starts within half a line of one of ``bulletIndents``.
    func startsAtBulletIndent(_ line: PageLine) -> Bool {
        let reach = page.bodyHeight / 2
        var low = 0, high = bulletIndents.count  // the first indent at or right of x - reach
        while low < high {
            let middle = (low + high) / 2
            if bulletIndents[middle] < line.box.x - reach { low = middle + 1 } else { high = middle }
        }
        return low < bulletIndents.count && bulletIndents[low] <= line.box.x + reach
    }

    /// `token` is one or two characters each of which Tesseract reads bullets as, or a bullet
    /// ("»*"), not dashes alone.
    static func isMisreadBullet(_ token: String) -> Bool {
        (1...2).contains(token.count) && !token.allSatisfy { "-–—".contains($0) }
            && token.allSatisfy { bulletMisreadings.contains(String($0)) || bullets.contains($0) }
    }

    /// Groups of consecutive lines of one Tesseract paragraph, lines in `excluded` left out,
    /// each returned with its reading-order position.
    func elements(excluding excluded: Set<Int>) -> [(order: Int, element: Element)] {
        var groups: [[PageLine]] = []
        for line in page.lines where !excluded.contains(line.order) {
            // A one-line heading that Tesseract put in one paragraph with the text under it:
            // the first line larger than the second by a tenth or more is a group of its own.
            // Consecutive: nothing between them but parts of lines cut off into a ruled grid.
            if let group = groups.last, let last = group.last, last.paragraph == line.paragraph,
               page.lines[(last.order + 1)..<line.order].allSatisfy(\.isCutFromProse),
               !(group.count == 1 && Self.isLarger(last.typeSize, than: line.typeSize)) {
                groups[groups.count - 1].append(line)
            } else {
                groups.append([line])
            }
        }
        var out: [(Int, Element)] = []
        var list: [ListItem] = []
        var listOrdered = false
        var listOrder = 0
        var itemParagraph = -1  // the Tesseract paragraph the last item's last line is in
        func closeList() {
            guard !list.isEmpty else { return }
            // Levels are the ranks of the markers' indents (indents within half a line are one).
            var indents: [Int] = []
            for x in list.map(\.box.x).sorted() where indents.last.map({ x - $0 > page.bodyHeight / 2 }) ?? true {
                indents.append(x)
            }
            let items = list.map { item in
                var item = item
                item.level = min(5, indents.lastIndex { $0 <= item.box.x + page.bodyHeight / 2 } ?? 0)
                return item
            }
            out.append((listOrder, .done(.list(ListBlock(isOrdered: listOrdered, items: items, box: PageBox.union(items.map(\.box))!)))))
            list = []
        }
        for (index, group) in groups.enumerated() {
            let nextStartsItem = index + 1 < groups.count && marker(of: groups[index + 1][0]) != nil
            if let heading = headingCandidate(group, nextStartsItem: nextStartsItem, inList: !list.isEmpty) {
                closeList()
                out.append((group[0].order, .heading(heading)))
                continue
            }
            var rest: [PageLine] = []
            for line in group {
                if let marker = marker(of: line) {
                    if !rest.isEmpty {
                        closeList()
                        out.append((rest[0].order, .done(.paragraph(Self.textBlock(rest)))))
                        rest = []
                    }
                    if list.isEmpty {
                        listOrder = line.order
                        listOrdered = marker.ordered
                    }
                    let words = Array(line.words.dropFirst(marker.wordsTaken))
                    let text = (marker.rest.map { [$0] } ?? []) + words.map(\.text)
                    list.append(ListItem(marker: marker.text, text: text.joined(separator: " "), level: 0, box: line.box))
                    itemParagraph = line.paragraph
                } else if var item = list.last, rest.isEmpty,
                          line.paragraph == itemParagraph ? line.box.x >= item.box.x - page.bodyHeight / 2
                                                          : line.box.x > item.box.x + page.bodyHeight / 3 {
                    // The item's paragraph goes on (not set out to its left), or a later
                    // paragraph indented under the item's text: the item goes on.
                    item.text = Self.joined(item.text, line.text)
                    item.box = item.box.union(line.box)
                    list[list.count - 1] = item
                } else {
                    if rest.isEmpty { closeList() }
                    rest.append(line)
                }
            }
            if !rest.isEmpty {
                out.append((rest[0].order, .done(.paragraph(Self.textBlock(rest)))))
            }
        }
        closeList()
        return out.sorted { $0.0 < $1.0 }
    }

    /// A short group set larger than the body, or a line a little larger in title case, or of
    /// body size but numbered like a section (`2.1 Scope`) or in capitals (`INTRODUCTION`),
    /// standing alone; after a list item, only a larger one (a numbered line there is the
    /// list's next item).
    func headingCandidate(_ group: [PageLine], nextStartsItem: Bool, inList: Bool) -> HeadingCandidate? {
        let words = group.flatMap(\.words)
        guard group.count <= 3, words.count <= 20 else { return nil }
        let text = Self.textBlock(group)
        let size = PageLines.median(group.map(\.typeSize))!
        let ratio = Double(size) / Double(page.bodyTypeSize)
        let letters = text.text.filter(\.isLetter)
        guard letters.count >= 2 else { return nil }  // a lone number or mark is not a heading
        if ratio >= 1.3 {
            return HeadingCandidate(text: text.text, box: text.box, sizeRatio: ratio, numberingDepth: Self.sectionDepth(words.first!.text))
        }
        guard !inList, group.count == 1, words.count <= 10, !(text.text.last.map { ".,;:".contains($0) } ?? false) else { return nil }
        // A line a little larger than the body in title case ("Mutable References" at 12.5 pt
        // over 11 pt text), or of body size and a paragraph of its own ("The API of Mutex<T>"
        // in bold): a heading set in bold, mostly, which the line heights alone miss.
        if Self.isTitleCase(words.map(\.text)),
           ratio >= Self.titleCaseSizeRatio || ratio >= 1 && words.count >= 2 && paragraphLines[group[0].paragraph] == 1 {
            return HeadingCandidate(text: text.text, box: text.box, sizeRatio: ratio, numberingDepth: Self.sectionDepth(words[0].text))
        }
        if let depth = Self.sectionDepth(words[0].text), words.count >= 2, words[1].text.first?.isUppercase == true,
           depth >= 2 || !nextStartsItem {
            return HeadingCandidate(text: text.text, box: text.box, sizeRatio: 1, numberingDepth: depth)
        }
        if letters.count >= 4, letters.allSatisfy(\.isUppercase), words.count <= 8 {
            return HeadingCandidate(text: text.text, box: text.box, sizeRatio: 1, numberingDepth: nil)
        }
        return nil
    }

    /// How much larger than the body a title-case line must be to be a heading.
    static let titleCaseSizeRatio = 1.1

    /// Words a title leaves in lower case.
    static let titleSmallWords: Set<String> = ["with", "from", "into", "onto", "over", "than", "that", "upon", "when", "within", "without", "versus"]

    /// The first word capitalised, and half or more of the other words of four letters or more
    /// that are words, not code or small words ("The Anatomy of a Rust Program", "Creating a
    /// New Thread with spawn"; not "Here is the error").
    static func isTitleCase(_ words: [String]) -> Bool {
        guard let first = words.first?.first(where: \.isLetter), first.isUppercase else { return false }
        let content = words.dropFirst().filter { word in
            word.count >= 4 && word.allSatisfy(\.isLetter) && !titleSmallWords.contains(word)
        }
        let capitalised = content.filter { $0.first!.isUppercase }.count
        return 2 * capitalised >= content.count
    }

    /// Whether type size `a` is a tenth or more larger than `b` (a heading's over its text's).
    static func isLarger(_ a: Int, than b: Int) -> Bool {
        Double(a) >= titleCaseSizeRatio * Double(max(1, b))
    }

    /// `2`, `2.`, `2.1`, `2.1.3`: the number of components; nil for anything else.
    static func sectionDepth(_ token: String) -> Int? {
        var token = Substring(token)
        if token.last == "." { token = token.dropLast() }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 6, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        return parts.count
    }

    struct Marker {
        var text: String
        var ordered: Bool
        /// Words of the line the marker took (1; 0 when it was glued to the first word).
        var wordsTaken: Int
        /// What followed the marker inside its word, when glued (`•Item`).
        var rest: String?
    }

    static let bullets: Set<Character> = ["•", "·", "▪", "▫", "●", "◦", "○", "■", "□", "‣", "⁃", "–", "—", "-", "*", "►", "▶", "✓", "✔", "➢", "»"]

    /// The list marker that starts `line`: a bullet, or an enumerator (`1.`, `12)`, `(3)`,
    /// `a.`, `b)`, `(c)`, `iv.`), followed by words.
    func marker(of line: PageLine) -> Marker? {
        guard let first = line.words.first?.text, let head = first.first else { return nil }
        if line.words.count >= 2, misreadBullets.contains(first)
            || Self.isMisreadBullet(first) && startsAtBulletIndent(line) {
            // The marker as read: what is on the page is a bullet, but what was read is kept.
            return Marker(text: first, ordered: false, wordsTaken: 1, rest: nil)
        }
        if Self.bullets.contains(head) {
            if first.count == 1 {
                return line.words.count >= 2 ? Marker(text: first, ordered: false, wordsTaken: 1, rest: nil) : nil
            }
            // Glued to its word ("•Item"); a hyphen or dash glued to a word is a word ("-1", "—and").
            guard !"-–—".contains(head), first.dropFirst().first?.isLetter == true else { return nil }
            return Marker(text: String(head), ordered: false, wordsTaken: 1, rest: String(first.dropFirst()))
        }
        guard line.words.count >= 2, Self.isEnumerator(first) else { return nil }
        return Marker(text: first, ordered: true, wordsTaken: 1, rest: nil)
    }

    static func isEnumerator(_ token: String) -> Bool {
        var core = Substring(token)
        let parenthesised = core.first == "(" && core.last == ")"
        if parenthesised {
            core = core.dropFirst().dropLast()
        } else if core.last == "." || core.last == ")" {
            let closer = core.last!
            core = core.dropLast()
            // "A." is too often an initial: capital letters only with a parenthesis.
            if closer == ".", core.count == 1, core.first!.isUppercase { return false }
        } else {
            return false
        }
        guard !core.isEmpty else { return false }
        if core.count <= 3, core.allSatisfy(\.isASCIIDigit) { return true }
        if core.count == 1, core.first!.isLetter, core.first!.isASCII { return true }
        let roman: Set<Character> = ["i", "v", "x", "I", "V", "X"]
        return core.count <= 4 && core.allSatisfy { roman.contains($0) } && (core.allSatisfy(\.isLowercase) || core.allSatisfy(\.isUppercase))
    }

    /// The lines as one text: joined with spaces, a word broken with a hyphen at a line's end
    /// joined again when the next line goes on in lower case.
    static func textBlock(_ lines: [PageLine]) -> TextBlock {
        let text = lines.dropFirst().reduce(lines[0].text) { joined($0, $1.text) }
        return TextBlock(text: text, box: PageBox.union(lines.map(\.box))!)
    }

    /// A line ending in a letter and a hyphen: before a lower-case continuation the hyphen
    /// was the line break's (`encour-` `aging`), before a capital it is the word's own
    /// (`Anglo-` `Saxon`); either way no space.
    static func joined(_ text: String, _ next: String) -> String {
        let chars = Array(text.suffix(2))
        if chars.count == 2, chars[1] == "-", chars[0].isLetter, let first = next.first, first.isLetter {
            return (first.isLowercase ? String(text.dropLast()) : text) + next
        }
        return text + " " + next
    }
}
