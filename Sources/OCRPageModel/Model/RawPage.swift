import OCRWire

// The page as recognition reports it, before it becomes a `PageResult`: blocks of paragraphs of
// lines of words of symbols, in the pixels of the image that was read. Pure values: the
// Tesseract wrapper fills them, the analysis steps and the word combination rewrite them.

/// Element rectangles as Tesseract reports them: in the coordinates of the image it was given,
/// left/top inclusive, right/bottom exclusive.
package struct RawRect: Equatable, Sendable {
    package var left: Int, top: Int, right: Int, bottom: Int
    package var width: Int { right - left }
    package var height: Int { bottom - top }

    /// Whether this rectangle and `other` share any pixel.
    package func overlaps(_ other: RawRect) -> Bool {
        left < other.right && other.left < right && top < other.bottom && other.top < bottom
    }

    /// Whether `other`'s centre lies in this rectangle.
    package func contains(centreOf other: RawRect) -> Bool {
        let x = (other.left + other.right) / 2, y = (other.top + other.bottom) / 2
        return x >= left && x < right && y >= top && y < bottom
    }

    /// The indices of `rects` in groups, each in the order of `rects` and the groups in the
    /// order of their first member: rectangles at most `across` pixels apart side by side and
    /// `down` pixels above one another are in one group, directly or through others (-1 and -1:
    /// rectangles that overlap).
    package static func groups(_ rects: [RawRect], across: Int, down: Int) -> [[Int]] {
        // Union-find over the rectangles, joined when their boxes come within reach.
        var parent = Array(rects.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        let order = rects.indices.sorted { rects[$0].left < rects[$1].left }
        for (n, i) in order.enumerated() {
            let a = rects[i]
            for j in order[(n + 1)...] {
                let b = rects[j]
                if b.left > a.right + across { break }
                if b.top <= a.bottom + down && a.top <= b.bottom + down { parent[root(i)] = root(j) }
            }
        }
        var groups: [Int: [Int]] = [:]
        var firsts: [Int] = []
        for i in rects.indices {
            if groups[root(i)] == nil { firsts.append(root(i)) }
            groups[root(i), default: []].append(i)
        }
        return firsts.map { groups[$0]! }
    }

    package init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }
}

/// One recognised character, with the engine's alternatives when they were asked for.
package struct RawSymbol {
    package var text = ""
    package var confidence: Float = 0
    package var rect: RawRect
    package var choices: [(text: String, confidence: Float)] = []

    package init(text: String = "", confidence: Float = 0, rect: RawRect, choices: [(text: String, confidence: Float)] = []) {
        self.text = text; self.confidence = confidence; self.rect = rect; self.choices = choices
    }
}

/// One word; `fromDictionary` when the engine found it in its word list.
package struct RawWord {
    package var text = ""
    package var confidence: Float = 0
    package var rect: RawRect
    package var fromDictionary = false
    package var symbols: [RawSymbol] = []

    package init(text: String = "", confidence: Float = 0, rect: RawRect, fromDictionary: Bool = false, symbols: [RawSymbol] = []) {
        self.text = text; self.confidence = confidence; self.rect = rect; self.fromDictionary = fromDictionary; self.symbols = symbols
    }

    /// The word spelt `characters`, one for each of its text's: its symbols read alike where
    /// they spell it one character each (else they keep their text).
    package func respelled(_ characters: [Character]) -> RawWord {
        var out = self
        out.text = String(characters)
        if symbols.map(\.text).joined() == text, symbols.count == characters.count {
            for s in out.symbols.indices { out.symbols[s].text = String(characters[s]) }
        }
        return out
    }

    /// The mean confidence of `words` (0 for none).
    package static func meanConfidence(_ words: [RawWord]) -> Float {
        words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / Float(words.count)
    }
}

/// One text line; `baseline` is the engine's baseline as x1, y1, x2, y2 when it gave one.
package struct RawLine {
    package var confidence: Float = 0
    package var rect: RawRect
    package var baseline: [Int] = []
    package var words: [RawWord] = []

    package init(confidence: Float = 0, rect: RawRect, baseline: [Int] = [], words: [RawWord] = []) {
        self.confidence = confidence; self.rect = rect; self.baseline = baseline; self.words = words
    }
}

package struct RawParagraph {
    package var confidence: Float = 0
    package var rect: RawRect
    package var lines: [RawLine] = []

    package init(confidence: Float = 0, rect: RawRect, lines: [RawLine] = []) {
        self.confidence = confidence; self.rect = rect; self.lines = lines
    }
}

/// One block of the layout analysis: text, a picture, a rule...
package struct RawBlock {
    package var confidence: Float = 0
    package var rect: RawRect
    package var type: BlockType
    package var paragraphs: [RawParagraph] = []

    package init(confidence: Float = 0, rect: RawRect, type: BlockType, paragraphs: [RawParagraph] = []) {
        self.confidence = confidence; self.rect = rect; self.type = type; self.paragraphs = paragraphs
    }
}

extension RawBlock {
    /// Every word of `blocks`, with text or without (layout analysis's words have none).
    package static func allWords(_ blocks: [RawBlock]) -> [RawWord] { blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words) }

    /// Every word of `blocks` that has text (not Tesseract's empty placeholder over an image).
    package static func wordsWithText(_ blocks: [RawBlock]) -> [RawWord] {
        allWords(blocks).filter { !$0.text.allSatisfy(\.isWhitespace) }
    }

    /// `blocks` with each word `replacement` reads anew replaced by that reading (nil keeps the
    /// word), and how many were.
    package static func replacingWords<E: Error>(in blocks: [RawBlock], _ replacement: (RawWord) throws(E) -> RawWord?) throws(E) -> (blocks: [RawBlock], changed: Int) {
        try replacingLines(in: blocks) { (line: RawLine) throws(E) -> (line: RawLine, changed: Int)? in
            var line = line
            var changed = 0
            for w in line.words.indices {
                guard let read = try replacement(line.words[w]) else { continue }
                line.words[w] = read
                changed += 1
            }
            return changed == 0 ? nil : (line, changed)
        }
    }

    /// `blocks` with each line `replacement` reads anew replaced by that reading (nil keeps the
    /// line), and how many words changed, as it counts them.
    package static func replacingLines<E: Error>(in blocks: [RawBlock], _ replacement: (RawLine) throws(E) -> (line: RawLine, changed: Int)?) throws(E) -> (blocks: [RawBlock], changed: Int) {
        var blocks = blocks
        var changed = 0
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].lines.indices {
                    guard let read = try replacement(blocks[b].paragraphs[p].lines[l]) else { continue }
                    blocks[b].paragraphs[p].lines[l] = read.line
                    changed += read.changed
                }
            }
        }
        return (blocks, changed)
    }

    /// `blocks` with only the words `keep` keeps; the lines, paragraphs and blocks that leaves
    /// without words go.
    package static func keepingWords(of blocks: [RawBlock], where keep: (RawWord) -> Bool) -> [RawBlock] {
        blocks.compactMap { block in
            var block = block
            for p in block.paragraphs.indices {
                for l in block.paragraphs[p].lines.indices { block.paragraphs[p].lines[l].words.removeAll { !keep($0) } }
                block.paragraphs[p].lines.removeAll { $0.words.isEmpty }
            }
            block.paragraphs.removeAll { $0.lines.isEmpty }
            return block.paragraphs.isEmpty ? nil : block
        }
    }
}
