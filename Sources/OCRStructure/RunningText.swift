import OCRBasics

/// Running headers and footers: lines in the top or bottom tenth of a page whose text, digits
/// aside, comes back on other pages of the job in the same band, and page numbers there
/// (`7`, `- 7 -`, `Page 7`, `7 of 12`) on any page.
enum RunningText {
    /// Where one page's running lines are looked for: its first two lines wholly in its top
    /// tenth (top first) and its last two wholly in its bottom tenth (bottom first).
    struct Bands: Equatable {
        var pageIndex: Int
        var top: [TextBlock]
        var bottom: [TextBlock]

        init(pageIndex: Int, top: [TextBlock], bottom: [TextBlock]) {
            self.pageIndex = pageIndex
            self.top = top
            self.bottom = bottom
        }

        init(_ page: PageLines) {
            let text = { (line: PageLine) in TextBlock(text: line.text, box: line.box) }
            guard page.pageHeight > 0 else {
                self.init(pageIndex: page.pageIndex, top: [], bottom: [])
                return
            }
            self.init(pageIndex: page.pageIndex,
                      top: page.lines.filter { $0.box.maxY * 10 <= page.pageHeight }.sorted { $0.box.y < $1.box.y }.prefix(2).map(text),
                      bottom: page.lines.filter { $0.box.y * 10 >= page.pageHeight * 9 }.sorted { $0.box.y > $1.box.y }.prefix(2).map(text))
        }
    }

    /// One page's running lines.
    struct PageRunning {
        var headerLines: [TextBlock] = []
        var footerLines: [TextBlock] = []

        var header: TextBlock? { Self.block(headerLines) }
        var footer: TextBlock? { Self.block(footerLines) }
        /// Every running line's box.
        var boxes: [PageBox] { (headerLines + footerLines).map(\.box) }

        private static func block(_ lines: [TextBlock]) -> TextBlock? {
            let lines = lines.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
            guard !lines.isEmpty else { return nil }
            return TextBlock(text: lines.map(\.text).joined(separator: " "), box: PageBox.union(lines.map(\.box))!)
        }
    }

    private enum Band { case top, bottom }

    /// Running lines of each page, by page index.
    static func find(in pages: [Bands]) -> [Int: PageRunning] {
        // Candidates: the lines of each band, keyed by their text with digits made alike (page
        // numbers and dates differ from page to page).
        var candidates: [(page: Int, band: Band, line: TextBlock, key: String)] = []
        for (index, page) in pages.enumerated() {
            for line in page.top { candidates.append((index, .top, line, key(line.text))) }
            for line in page.bottom { candidates.append((index, .bottom, line, key(line.text))) }
        }
        var pagesWithKey: [String: Set<Int>] = [:]
        for candidate in candidates {
            pagesWithKey["\(candidate.band)|\(candidate.key)", default: []].insert(candidate.page)
        }
        let needed = max(2, (pages.count * 2 + 4) / 5)  // on 40% of the pages, at least two
        var running: [Int: PageRunning] = [:]
        for candidate in candidates {
            let repeats = pagesWithKey["\(candidate.band)|\(candidate.key)"]!.count >= needed
            guard repeats || isPageNumber(candidate.line.text) else { continue }
            let pageIndex = pages[candidate.page].pageIndex
            switch candidate.band {
            case .top: running[pageIndex, default: PageRunning()].headerLines.append(candidate.line)
            case .bottom: running[pageIndex, default: PageRunning()].footerLines.append(candidate.line)
            }
        }
        return running
    }

    /// Lower case, every run of digits one `#`, spaces collapsed.
    static func key(_ text: String) -> String {
        var out = ""
        var lastWasDigit = false
        for character in text.lowercased() where !character.isWhitespace {
            if character.isNumber {
                if !lastWasDigit { out.append("#") }
                lastWasDigit = true
            } else {
                out.append(character)
                lastWasDigit = false
            }
        }
        return out
    }

    /// `7`, `- 7 -`, `Page 7`, `p. 7`, `7 of 12`, `7/12`, `vii`.
    static func isPageNumber(_ text: String) -> Bool {
        var words = text.lowercased().split(whereSeparator: { $0.isWhitespace || "-–—".contains($0) }).map(String.init)
        if let first = words.first, ["page", "p.", "seite", "pág.", "página"].contains(first) { words.removeFirst() }
        if words.count == 3, ["of", "/", "von", "de"].contains(words[1]) { words = [words[0], words[2]] }
        if words.count == 1, words[0].contains("/") { words = words[0].split(separator: "/").map(String.init) }
        guard (1...2).contains(words.count) else { return false }
        let roman: Set<Character> = ["i", "v", "x", "l"]
        return words.allSatisfy { word in
            (!word.isEmpty && word.count <= 4 && word.allSatisfy(\.isASCIIDigit)) || (word.count <= 6 && word.allSatisfy { roman.contains($0) } && words.count == 1)
        }
    }
}
