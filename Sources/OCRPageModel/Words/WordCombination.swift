import Foundation
import OCRWire

/// Combines several recognitions ("passes") of one page word by word, ROVER-style: the `best`
/// level's last step. Pure: raw hierarchies in, one raw hierarchy out.
///
/// **Alignment.** Every pass read the same image (same size), so words are aligned by their
/// boxes: two words of different passes are linked when they share a text line (vertical overlap
/// of at least half the lower one's height) and overlap horizontally by at least 30% of the
/// narrower one's width; a cluster is what is linked, directly or through others. A cluster can
/// hold one word of one pass and several of another ("3432twoyou" against "3432" "two" "you").
///
/// **Choice.** In each cluster each pass proposes the sequence of its words there, left to
/// right, or nothing. A proposal scores, for each pass that made it, 1 + `confidence` x (mean
/// word confidence - 0.5) + `dictionary` x (the share of its words that are dictionary words or
/// numbers); nothing scores `emptyVote` per pass that saw nothing. The highest score wins; a tie
/// goes to the first pass (the `accurate` reading). Over `best`'s passes (``overBestPasses``) a
/// proposal scores its most convincing pass plus a little for each pass that agrees, and a
/// proposal with the first pass's letters and digits but other marks or spaces loses to it.
///
/// **Invented words.** Where the first pass saw nothing, a word other passes read (noise read as
/// text, or a region only one preprocessing recovers) is added only when its score beats the
/// passes that saw nothing there, and two passes read it alike or one read it with a confidence
/// of at least `soloConfidence`, each word with `newWordCharacters` letters or digits (two; a single
/// digit too where the regions read are known to hold letters). Such words count as errors
/// for a reader (a photo's texture read as "ee" and "|" cost a UNLV page 6 points before that
/// rule). A word the first pass read is replaced by a better reading or kept, never dropped.
///
/// **Run-together words.** When another proposal has the winner's characters split into more
/// words, and more of them are dictionary words or numbers, it wins instead (passes that agree
/// on "3432twoyou" lose to one whose word boxes split it). A web or mail address or a DOI stays
/// whole: a reading that cut it at its "doi:" or "www." loses to one that read it as one word.
///
/// **Result.** The first pass's blocks, paragraphs and lines, with each cluster's words replaced by
/// the winner's (boxes, symbols and choices of the winning pass that is most confident; the first
/// pass's own when it is among the winners). Words found where the first pass had none go into the
/// first pass's line they continue (``lineHolding(_:in:)``), else the first pass's line their own
/// pass read them with (a receipt's price, far right of its item), else into new lines and blocks
/// of their own (grouped as their pass grouped them), placed after the blocks that start above them.
package struct WordCombination {
    /// When set, a proposal scores its most convincing pass's score plus this much for each
    /// other pass that reads it alike, instead of the sum of their scores: `best`'s passes read
    /// the same pixels, filtered, and are no independent witnesses (two unsure passes reading
    /// "Smeg," at 0.42 and 0.35 outvoted a first reading of "5mcg," at 0.93). Nil: the sum.
    package var agreement: Double?
    /// Whether a proposal that differs from the first pass's only in punctuation and spaces (the
    /// same letters and digits in the same order) loses to it: filtered images lose small marks
    /// ("26.034.823" read "26" "034" "823" by two passes, "Inj." read "Inj"), and the first pass's
    /// own marks have been checked against the page already (its word gaps, numbers read again alone).
    package var keepsFirstPassMarks = false
    /// Score per pass that saw nothing in a cluster.
    package var emptyVote = 0.3
    /// Weight of a proposal's mean word confidence (0...1), centred on 0.5.
    package var confidence = 3.0
    /// Weight of the share of a proposal's words that are dictionary words or numbers.
    package var dictionary = 1.0
    /// The mean confidence a word only one pass read, where the first pass saw nothing, needs.
    package var soloConfidence = 0.8
    /// The same over the parts of the page where text was lost (`overLostText`). Chosen on
    /// SROIE's dev receipts: 0.8 read 1,017 of 1,663 segments exactly, 0.6 1,019, 0.5 1,021; but
    /// at 0.5 a UNLV scan's photo gained "im" and "3" (read at 0.51 and 0.52), so 0.6. The
    /// real-layout dev half read the same words with each.
    package static let lostTextConfidence = 0.6
    /// Whether another pass's reading may replace the first pass's words; when false, only words
    /// found where the first pass saw nothing are added (`accurate` recovering lost text: what
    /// plain Tesseract read stays as it read it).
    package var replacesWords = true
    /// Whether a word found where the first pass saw nothing joins the first-pass line it lies
    /// on at any distance (readings of parts of the page, ``LostRegions``: a price read apart
    /// from its item), not only a line it continues.
    package var joinsDistantLines = false
    /// The letters or digits each word found where the first pass saw nothing needs: 2 where
    /// that may be the page's texture.
    package var newWordCharacters = 2
    /// Whether a single digit counts as such a word anyway (a count in a table column, a page
    /// number); a single letter never does (a speck reads as "i").
    package var singleDigitsCount = false
    /// Whether each word found where the first pass saw nothing must be plausible
    /// (``isPlausible(_:)``: a dictionary word or a number).
    package var newWordsPlausible = false
    /// Whether words found where the first pass saw nothing may be added at all (false: other
    /// passes only replace what it read, as numbers read again on their own do).
    package var addsWords = true

    /// The combination with the default weights; `replacesWords` and `joinsDistantLines` as
    /// documented above. `overKnownLetters`: the other passes read small parts of the page known
    /// to hold letters the first pass did not read (a column of "8", "1", "0" read turned,
    /// ``TurnedLines``; a lone page number, ``LostText``), so single digits count and a solo
    /// reading needs a confidence of 0.5; but the words must be dictionary words or numbers,
    /// since a column of checkboxes is read turned too, and again as "L]" and "Xx]".
    /// `overLostText`: the other passes read the parts of the page around letters the first pass
    /// left unread (``LostRegions``), so a solo reading there needs a confidence of
    /// ``lostTextConfidence`` only, not ``soloConfidence``'s 0.8 (a receipt's item row under a
    /// dashed rule, "FG-A00019 1 1.50", read by one recovery pass at 0.6-0.8).
    package init(replacesWords: Bool = true, joinsDistantLines: Bool = false, overKnownLetters: Bool = false, overLostText: Bool = false) {
        self.replacesWords = replacesWords
        self.joinsDistantLines = joinsDistantLines
        if overLostText { soloConfidence = Self.lostTextConfidence }
        if overKnownLetters {
            singleDigitsCount = true
            soloConfidence = 0.5
            newWordsPlausible = true
        }
    }

    /// `best`'s combination of its extra passes over the whole page with the `accurate` reading
    /// (the first pass): no vote by numbers (``agreement``), the first pass's marks kept
    /// (``keepsFirstPassMarks``). Chosen on the real-layout corpus's dev half (BENCHMARKS.md,
    /// "`best` no worse than `accurate`": 91.6% -> 92.1%, `accurate` 92.0%).
    package static var overBestPasses: WordCombination {
        var combination = WordCombination()
        combination.agreement = 0.5
        combination.keepsFirstPassMarks = true
        return combination
    }

    /// `passes[0]` is the reading the others refine; all in the same image's pixels.
    package func combine(_ passes: [[RawBlock]]) -> [RawBlock] {
        guard let primary = passes.first else { return [] }
        guard passes.count > 1 else { return primary }
        let items = Self.words(of: passes)
        let clusters = Self.clusters(items)

        // The first first-pass line each other pass's line shares a word with: a word only that
        // pass read and too far from any first-pass line goes there (a receipt's price, far
        // right of its item, belongs to the item's line).
        var sharedLine: [SourceLine: WordPath] = [:]
        for members in clusters {
            guard let first = members.map({ items[$0] }).first(where: { $0.pass == 0 }) else { continue }
            for item in members.map({ items[$0] }) where item.pass != 0 {
                if sharedLine[SourceLine(item)] == nil { sharedLine[SourceLine(item)] = first.path.line0 }
            }
        }

        // For each first-pass word: keep it, or drop it (its cluster's winner replaces it).
        var dropped = Set<WordPath>()
        var replacements: [(anchor: WordPath?, words: [Item])] = []
        for members in clusters {
            let winner = choose(members.map { items[$0] }, passCount: passes.count)
            let primaryWords = members.map { items[$0] }.filter { $0.pass == 0 }
            // The first pass's own words won, or nothing did: a word the first pass read is
            // replaced by another reading, never dropped (no level loses what `accurate` reads).
            guard let winner, winner.first?.pass != 0, replacesWords || primaryWords.isEmpty else { continue }
            for word in primaryWords { dropped.insert(word.path) }
            replacements.append((primaryWords.map(\.path).min(), winner))
        }
        return Self.rebuild(primary, dropping: dropped, adding: replacements, sharedLine: sharedLine, anyDistance: joinsDistantLines)
    }

    // MARK: Alignment

    /// Where a word sits in its pass's hierarchy.
    package struct WordPath: Hashable, Comparable {
        package var block: Int, paragraph: Int, line: Int, word: Int
        package init(block: Int, paragraph: Int, line: Int, word: Int) {
            self.block = block; self.paragraph = paragraph; self.line = line; self.word = word
        }
        package static func < (a: WordPath, b: WordPath) -> Bool {
            (a.block, a.paragraph, a.line, a.word) < (b.block, b.paragraph, b.line, b.word)
        }
        /// Its line, as a path (word 0).
        package var line0: WordPath { WordPath(block: block, paragraph: paragraph, line: line, word: 0) }
    }

    package struct Item {
        package var pass: Int
        package var path: WordPath
        package var word: RawWord
        package var line: RawLine  // Its line, without words: where a new line of it would come from.
    }

    /// A line of one pass.
    package struct SourceLine: Hashable {
        package var pass: Int, block: Int, paragraph: Int, line: Int
        package init(_ item: Item) { (pass, block, paragraph, line) = (item.pass, item.path.block, item.path.paragraph, item.path.line) }
    }

    package static func words(of passes: [[RawBlock]]) -> [Item] {
        var items: [Item] = []
        for (pass, blocks) in passes.enumerated() {
            for (b, block) in blocks.enumerated() {
                for (p, paragraph) in block.paragraphs.enumerated() {
                    for (l, line) in paragraph.lines.enumerated() {
                        var bare = line
                        bare.words = []
                        for (w, word) in line.words.enumerated() where !word.text.allSatisfy(\.isWhitespace) {
                            items.append(Item(pass: pass, path: WordPath(block: b, paragraph: p, line: l, word: w),
                                              word: word, line: bare))
                        }
                    }
                }
            }
        }
        return items
    }

    /// Whether two words of different passes are the same place on the page.
    package static func linked(_ a: RawRect, _ b: RawRect) -> Bool {
        let w = min(a.right, b.right) - max(a.left, b.left)
        let h = min(a.bottom, b.bottom) - max(a.top, b.top)
        guard w > 0, h > 0 else { return false }
        return Double(h) >= 0.5 * Double(min(a.height, b.height)) && Double(w) >= 0.3 * Double(min(a.width, b.width))
    }

    /// Indices of `items` grouped into clusters (union-find over linked pairs; only words whose
    /// tops come before the other's bottom are compared, so a page costs about n log n).
    package static func clusters(_ items: [Item]) -> [[Int]] {
        var parent = Array(items.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        let order = items.indices.sorted { items[$0].word.rect.top < items[$1].word.rect.top }
        for (n, i) in order.enumerated() {
            let a = items[i]
            for j in order[(n + 1)...] {
                let b = items[j]
                if b.word.rect.top >= a.word.rect.bottom { break }
                if b.pass != a.pass, linked(a.word.rect, b.word.rect) {
                    let (ra, rb) = (root(i), root(j))
                    if ra != rb { parent[ra] = rb }
                }
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in items.indices { groups[root(i), default: []].append(i) }
        return groups.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    // MARK: Choice

    /// The winning proposal's words (of its most confident pass, the first pass preferred), or
    /// nil when nothing wins.
    package func choose(_ members: [Item], passCount: Int) -> [Item]? {
        struct Proposal {
            package var texts: [String]
            package var plausible: Double  // The share of its words that are dictionary words or numbers.
            package var score = 0.0
            package var supporterScores: [Double] = []  // Each supporting pass's own score.
            package var supporters: [(pass: Int, confidence: Double, words: [Item])] = []
        }
        var proposals: [Proposal] = []
        var silent = 0
        for pass in 0..<passCount {
            let words = members.filter { $0.pass == pass }.sorted { $0.word.rect.left < $1.word.rect.left }
            guard !words.isEmpty else { silent += 1; continue }
            let texts = words.map(\.word.text)  // String equality is canonical equivalence (NFC).
            let mean = words.reduce(0.0) { $0 + Double($1.word.confidence) } / Double(words.count)
            let plausible = Double(words.filter { Self.isPlausible($0.word) }.count) / Double(words.count)
            let score = 1 + confidence * (mean - 0.5) + dictionary * plausible
            if let i = proposals.firstIndex(where: { $0.texts == texts }) {
                proposals[i].supporterScores.append(score)
                proposals[i].supporters.append((pass, mean, words))
            } else {
                proposals.append(Proposal(texts: texts, plausible: plausible, supporterScores: [score], supporters: [(pass, mean, words)]))
            }
        }
        for i in proposals.indices {
            let scores = proposals[i].supporterScores
            proposals[i].score = agreement.map { scores.max()! + $0 * Double(scores.count - 1) } ?? scores.reduce(0, +)
        }
        // Proposals are in pass order, so the first with the top score is the earliest pass's.
        guard var best = proposals.first else { return nil }
        for proposal in proposals.dropFirst() where proposal.score > best.score { best = proposal }
        let nothing = emptyVote * Double(silent)
        let firstPassAmong = best.supporters.contains { $0.pass == 0 }
        let firstPassSilent = !proposals.contains { $0.supporters.contains { $0.pass == 0 } }
        if firstPassSilent, !addsWords { return nil }
        if firstPassSilent, !isNewWordTrusted(best.supporters.map { (confidence: $0.confidence, words: $0.words.map(\.word)) }) { return nil }
        guard best.score > nothing || (best.score == nothing && firstPassAmong) else { return nil }
        if keepsFirstPassMarks, !firstPassAmong, let first = proposals.first(where: { $0.supporters.contains { $0.pass == 0 } }),
           Self.lettersAndDigits(first.texts) == Self.lettersAndDigits(best.texts) {
            best = first
        }
        // An address is one token: a surer reading that cut it ("doi:" "10.1088/...") loses to
        // one that did not.
        if best.texts.count > 1,
           let whole = proposals.first(where: { $0.texts.count == 1 && $0.texts[0] == best.texts.joined() && Self.isAddress($0.texts[0]) }) {
            best = whole
        }
        // Run-together words: the same characters, split into more words, more of them
        // dictionary words or numbers ("3432twoyou" against "3432" "two" "you", the legacy
        // recogniser's word boxes): the split reading, whatever the vote.
        if let split = proposals.filter({ $0.texts.count > best.texts.count && $0.texts.joined() == best.texts.joined() && $0.plausible > best.plausible })
            .max(by: { $0.plausible < $1.plausible }) {
            return split.supporters.max { $0.confidence < $1.confidence }?.words
        }
        if best.supporters.contains(where: { $0.pass == 0 }) { return best.supporters.first { $0.pass == 0 }?.words }
        return best.supporters.max { $0.confidence < $1.confidence }?.words
    }

    /// The letters and digits of `texts`, in order, without anything between them.
    static func lettersAndDigits(_ texts: [String]) -> String {
        String(texts.joined().unicodeScalars.filter(CharacterSet.alphanumerics.contains).map(Character.init))
    }

    /// Whether words the first pass did not see at all may be added: read alike by two passes,
    /// or by one with a mean confidence of at least `soloConfidence`; and every word with at least
    /// `newWordCharacters` letters or digits (a photo's texture reads as "a", "ee", "|" and ":")
    /// or, when `singleDigitsCount`, a single digit; and plausible when `newWordsPlausible`.
    package func isNewWordTrusted(_ supporters: [(confidence: Double, words: [RawWord])]) -> Bool {
        guard let words = supporters.first?.words,
              words.allSatisfy({ word in
                  let characters = word.text.unicodeScalars.filter(CharacterSet.alphanumerics.contains)
                  return characters.count >= newWordCharacters
                      || singleDigitsCount && characters.count == 1 && characters.allSatisfy(CharacterSet.decimalDigits.contains)
              }),
              !newWordsPlausible || words.allSatisfy(Self.isPlausible) else { return false }
        return supporters.count >= 2 || supporters.contains { $0.confidence >= soloConfidence }
    }

    /// A word Tesseract found in its dictionary, or a number, amount, date or code of digits, or
    /// a short reference of digits and one capital letter ("13A", "B12": units, sections, forms),
    /// or a web or mail address or a DOI (``isAddress(_:)``): what a dictionary cannot hold but
    /// documents are full of. (An address read apart at its "doi:" or "www.", a dictionary word,
    /// is no more plausible than the whole, and the whole stays one word.)
    package static func isPlausible(_ word: RawWord) -> Bool {
        if word.fromDictionary || isAddress(word.text) { return true }
        let core = Self.core(word.text)
        guard let first = core.unicodeScalars.first else { return true }
        let numeric = Set("0123456789.,/:%-$")
        if (first == "$" || ("0"..."9").contains(Character(first))) && core.allSatisfy(numeric.contains) { return true }
        return isShortReference(core)
    }

    /// Whether `text` is a web or mail address or a DOI ("http://www.bol.com/klantenservice",
    /// "doi:10.1088/1475-7516"): one token, whose points, colons and slashes stand apart from
    /// their letters, so that a reading or a gap may cut it where it is none.
    package static func isAddress(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("://") || lower.contains("www.") || lower.contains("@") || lower.hasPrefix("doi:")
    }

    /// `text` without the quotes, brackets and punctuation around it ("(42)," -> "42").
    package static func core(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "\"'()[].,;:!?"))
    }

    /// One to four digits with one capital letter before or after them.
    private static func isShortReference(_ text: String) -> Bool {
        let letters = text.filter { ("A"..."Z").contains($0) }
        let digits = text.filter { ("0"..."9").contains($0) }
        guard letters.count == 1, (1...4).contains(digits.count), letters.count + digits.count == text.count else { return false }
        return text.first == letters.first || text.last == letters.first
    }

    // MARK: Result

    package static func rebuild(_ primary: [RawBlock], dropping dropped: Set<WordPath>,
                        adding replacements: [(anchor: WordPath?, words: [Item])], sharedLine: [SourceLine: WordPath] = [:],
                        anyDistance: Bool = false) -> [RawBlock] {
        var blocks = primary
        // Anchored replacements go into the line of the first word they replace; the others
        // into the first pass's line they continue, else the one their own pass read them with,
        // else a line of their own.
        var intoLine: [WordPath: [RawWord]] = [:]   // keyed by line (word = 0)
        var homeless: [Item] = []
        var unanchored: [Item] = []
        for replacement in replacements {
            if let anchor = replacement.anchor {
                intoLine[anchor.line0, default: []] += replacement.words.map(\.word)
                continue
            }
            unanchored += replacement.words
        }
        // Whole runs of a source line at once: the left half of a line the first pass read only
        // the right half of continues that line, though its far words are far from it.
        var runs: [[Item]] = []
        for item in unanchored.sorted(by: { ($0.pass, $0.path) < ($1.pass, $1.path) }) {
            if let last = runs.last?.last, last.pass == item.pass, last.path.block == item.path.block,
               last.path.paragraph == item.path.paragraph, last.path.line == item.path.line {
                runs[runs.count - 1].append(item)
            } else {
                runs.append([item])
            }
        }
        for run in runs {
            if let line = lineHolding(bounds(run.map(\.word.rect))!, in: primary, anyDistance: anyDistance) ?? sharedLine[SourceLine(run[0])] {
                intoLine[line, default: []] += run.map(\.word)
            } else {
                homeless += run
            }
        }
        var kept: [RawBlock] = []
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    var words: [RawWord] = []
                    for (w, word) in blocks[b].paragraphs[p].lines[l].words.enumerated()
                    where !dropped.contains(WordPath(block: b, paragraph: p, line: l, word: w)) {
                        words.append(word)
                    }
                    words += intoLine[WordPath(block: b, paragraph: p, line: l, word: 0)] ?? []
                    blocks[b].paragraphs[p].lines[l].words = words.sorted { $0.rect.left < $1.rect.left }
                }
                blocks[b].paragraphs[p].lines.removeAll { $0.words.isEmpty }
            }
            // A text block whose every word lost goes; blocks without text (layout) stay.
            let hadText = !blocks[b].paragraphs.isEmpty
            blocks[b].paragraphs.removeAll { $0.lines.isEmpty }
            if !hadText || !blocks[b].paragraphs.isEmpty { kept.append(blocks[b]) }
        }
        blocks = kept
        for block in newBlocks(homeless) {
            let at = blocks.firstIndex { $0.rect.top > block.rect.top } ?? blocks.endIndex
            blocks.insert(block, at: at)
        }
        return blocks
    }

    /// The first pass's line (as a path with word 0) that `rect` (a word, or a run of words of
    /// one line) continues: overlapping it vertically by half the run's height, and inside it or
    /// at most three line heights beyond either end (the rest of a line whose far end the first
    /// pass lost), or at any distance with `anyDistance`. The nearest such line.
    package static func lineHolding(_ rect: RawRect, in blocks: [RawBlock], anyDistance: Bool = false) -> WordPath? {
        var best: (path: WordPath, gap: Int)?
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                // Lines with text only: an image region's placeholder line spans the region.
                for (l, line) in paragraph.lines.enumerated() where line.words.contains(where: { !$0.text.allSatisfy(\.isWhitespace) }) {
                    let r = line.rect
                    let shared = min(r.bottom, rect.bottom) - max(r.top, rect.top)
                    guard Double(shared) >= 0.5 * Double(rect.height) else { continue }
                    let gap = max(0, r.left - rect.right, rect.left - r.right)
                    if anyDistance || gap <= 3 * max(r.height, rect.height), gap < best?.gap ?? .max {
                        best = (WordPath(block: b, paragraph: p, line: l, word: 0), gap)
                    }
                }
            }
        }
        return best?.path
    }

    /// Words with no place in the first pass's lines, as blocks grouped as their own pass
    /// grouped them (one block per source block, one line per source line), except that the
    /// blocks of different passes that overlap are one block, and in it the lines that share
    /// half their height are one line: a region that two passes read, each winning some of its
    /// words, reads as its lines, not as one pass's words and then the other's (a scanned
    /// footnote row came out "breast milk till ... on" above "Children Who were given nothing
    /// but the survey date ...").
    package static func newBlocks(_ items: [Item]) -> [RawBlock] {
        // The source lines, in the order their words come.
        var order: [SourceLine] = []
        var members: [SourceLine: [Item]] = [:]
        for item in items {
            let key = SourceLine(item)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(item)
        }
        // (as their passes read them, whatever words won: the other pass's words fill the gaps)
        let lineBounds = members.mapValues { bounds([$0[0].line.rect] + $0.map(\.word.rect))! }
        // Source blocks (pass, block) joined when their bounds overlap.
        struct SourceBlock: Hashable { var pass: Int, block: Int }
        var blockOrder: [SourceBlock] = []
        var blockBounds: [SourceBlock: RawRect] = [:]
        for key in order {
            let block = SourceBlock(pass: key.pass, block: key.block)
            if blockBounds[block] == nil { blockOrder.append(block) }
            let rect = lineBounds[key]!
            blockBounds[block] = blockBounds[block].map { bounds([$0, rect])! } ?? rect
        }
        var groupOf: [SourceBlock: Int] = [:]
        for (g, members) in RawRect.groups(blockOrder.map { blockBounds[$0]! }, across: -1, down: -1).enumerated() {
            for i in members { groupOf[blockOrder[i]] = g }
        }
        var groupOrder: [Int] = []
        var groupLines: [Int: [SourceLine]] = [:]
        for key in order {
            let g = groupOf[SourceBlock(pass: key.pass, block: key.block)]!
            if groupLines[g] == nil { groupOrder.append(g) }
            groupLines[g, default: []].append(key)
        }
        return groupOrder.map { g in
            // Each source line, top to bottom, joins the line it shares half its height with.
            var lines: [RawLine] = []
            let sources = groupLines[g]!.sorted { (lineBounds[$0]!.top, $0.pass, $0.paragraph, $0.line) < (lineBounds[$1]!.top, $1.pass, $1.paragraph, $1.line) }
            for key in sources {
                let words = members[key]!.sorted { $0.path < $1.path }
                let rect = lineBounds[key]!
                let shared = lines.indices.first { l in
                    let r = lines[l].rect
                    return 2 * (min(r.bottom, rect.bottom) - max(r.top, rect.top)) >= min(r.height, rect.height)
                }
                if let l = shared {
                    lines[l].words = (lines[l].words + words.map(\.word)).sorted { $0.rect.left < $1.rect.left }
                    lines[l].rect = bounds([lines[l].rect, rect])!
                } else {
                    var line = words[0].line
                    line.words = words.map(\.word)
                    line.rect = rect
                    lines.append(line)
                }
            }
            for l in lines.indices { lines[l].rect = bounds(lines[l].words.map(\.rect))! }
            let first = members[groupLines[g]![0]]![0]
            let rect = bounds(lines.map(\.rect)) ?? first.line.rect
            let paragraph = RawParagraph(confidence: first.word.confidence, rect: rect, lines: lines)
            return RawBlock(confidence: paragraph.confidence, rect: rect, type: .text, paragraphs: [paragraph])
        }
    }

    package static func bounds(_ rects: [RawRect]) -> RawRect? {
        guard let first = rects.first else { return nil }
        return rects.dropFirst().reduce(first) {
            RawRect(left: min($0.left, $1.left), top: min($0.top, $1.top), right: max($0.right, $1.right), bottom: max($0.bottom, $1.bottom))
        }
    }
}

extension Array where Element == RawBlock {
    /// The path of every word of these blocks, block by block, line by line, word by word.
    package var wordPaths: [WordCombination.WordPath] {
        indices.flatMap { b in
            self[b].paragraphs.indices.flatMap { p in
                self[b].paragraphs[p].lines.indices.flatMap { l in
                    self[b].paragraphs[p].lines[l].words.indices.map { WordCombination.WordPath(block: b, paragraph: p, line: l, word: $0) }
                }
            }
        }
    }

    /// The word at `path` in these blocks.
    package subscript(word path: WordCombination.WordPath) -> RawWord {
        get { self[path.block].paragraphs[path.paragraph].lines[path.line].words[path.word] }
        set { self[path.block].paragraphs[path.paragraph].lines[path.line].words[path.word] = newValue }
    }
}
