/// The words of a line that holds a dot leader, read again without the leader.
///
/// Tesseract reads a line as a whole, and a leader's dots, a run of marks on the baseline far
/// smaller than the letters, upset how it sizes the line's letters: beside a leader a
/// statistical table's labels in plain Arial come out "Milk", "Of", "Old", "MONTHS" and "Dirth"
/// for "milk", "of", "old", "months" and "birth" (plain `tesseract` too; the same words cut
/// out without their leader read right). Once ``DotLeaders`` has found the leaders, the words
/// before each leader (back to the line's start or the leader before) are a part of the page to
/// read again alone as one line, and that reading replaces the first one's words where it is
/// surer (the combination's usual choice; nothing is added).
package enum LeaderLines {
    /// Paper kept around a part, in its own height, across and above and below (the recogniser
    /// reads a line cut tight to its ink worse), up to a leader's first dot at most.
    static let margin = 0.5

    /// The parts of `blocks`' lines that hold a dot leader (a word of ``DotLeaders/minimumRun``
    /// or more full stops and nothing else) before each leader: the run of words back to the
    /// line's start or the leader before, when it has a letter or digit, within the page.
    package static func parts(in blocks: [RawBlock], width: Int, height: Int) -> [RawRect] {
        var parts: [RawRect] = []
        for line in blocks.flatMap(\.paragraphs).flatMap(\.lines) {
            let words = line.words.filter { !$0.text.allSatisfy(\.isWhitespace) }.sorted { $0.rect.left < $1.rect.left }
            let leaders = words.filter(isLeader).map(\.rect)
            guard !leaders.isEmpty else { continue }
            var run: [RawWord] = []
            func endRun() {
                defer { run = [] }
                guard run.contains(where: { $0.text.contains { $0.isLetter || $0.isNumber } }),
                      let box = WordCombination.bounds(run.map(\.rect)) else { return }
                let pad = Int((margin * Double(box.height)).rounded(.up))
                // Paper up to the nearest leader on each side, its dots left out (they are what
                // the first reading went wrong on). A leader's box is its dots' ink; a word's is
                // its symbols', which the recogniser places only roughly (a last letter may end
                // past it), so the margin is measured to the leader's first dot, not halved.
                let left = leaders.filter { $0.right <= box.left + box.height }.map(\.right).max().map { max($0, box.left - pad) } ?? box.left - pad
                let right = leaders.filter { $0.left >= box.right - box.height }.map(\.left).min().map { min($0, box.right + pad) } ?? box.right + pad
                let part = RawRect(left: max(0, left), top: max(0, box.top - pad), right: min(width, right), bottom: min(height, box.bottom + pad))
                if part.width > 0, part.height > 0 { parts.append(part) }
            }
            for word in words {
                if isLeader(word) { endRun() } else { run.append(word) }
            }
            // The words after the last leader (a row's figures) are left as read: they read the
            // same alone on the dev half, and a number read doubtfully is read alone anyway
            // (DoubtfulNumbers).
        }
        return parts
    }

    /// A word of dots alone, as ``DotLeaders`` reads a leader.
    static func isLeader(_ word: RawWord) -> Bool {
        word.text.count >= DotLeaders.minimumRun && word.text.allSatisfy { $0 == "." }
    }
}
