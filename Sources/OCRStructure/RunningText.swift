/// Running headers and footers: lines in the top or bottom tenth of a page whose text, digits
/// aside, comes back on other pages of the job in the same band, and page numbers there
/// (`7`, `- 7 -`, `Page 7`, `7 of 12`) on any page.
enum RunningText {
    /// The lines (by reading order) of one page that are its running header and footer.
    struct PageRunning {
        var headerLines: Set<Int> = []
        var footerLines: Set<Int> = []

        func header(in page: PageLines) -> TextBlock? { block(headerLines, page) }
        func footer(in page: PageLines) -> TextBlock? { block(footerLines, page) }

        private func block(_ orders: Set<Int>, _ page: PageLines) -> TextBlock? {
            let lines = page.lines.filter { orders.contains($0.order) }.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
            guard !lines.isEmpty else { return nil }
            return TextBlock(text: lines.map(\.text).joined(separator: " "), box: PageBox.union(lines.map(\.box))!)
        }
    }

    private enum Band { case top, bottom }

    /// Running lines of each page, by page index.
    static func find(in pages: [PageLines]) -> [Int: PageRunning] {
        // Candidates: up to two lines in each band of each page, keyed by their text with
        // digits made alike (page numbers and dates differ from page to page).
        var candidates: [(page: Int, band: Band, line: PageLine, key: String)] = []
        for (index, page) in pages.enumerated() where page.pageHeight > 0 {
            let top = page.lines.filter { $0.box.maxY * 10 <= page.pageHeight }.sorted { $0.box.y < $1.box.y }.prefix(2)
            let bottom = page.lines.filter { $0.box.y * 10 >= page.pageHeight * 9 }.sorted { $0.box.y > $1.box.y }.prefix(2)
            for line in top { candidates.append((index, .top, line, key(line.text))) }
            for line in bottom { candidates.append((index, .bottom, line, key(line.text))) }
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
            case .top: running[pageIndex, default: PageRunning()].headerLines.insert(candidate.line.order)
            case .bottom: running[pageIndex, default: PageRunning()].footerLines.insert(candidate.line.order)
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
