import OCRClient
import OCRWire

/// MathSolver's reading of a line from its character boxes: where a character's size and place
/// beside the digits contradict what the recogniser read, the geometry wins.
///
/// Recognisers trained on prose take an operator for a digit of the same outline: a raised `*`
/// for a `4` or `7` ("65+97*56" read "65+97456"), a `+` that grows a `4` beside it ("(21+25)/31"
/// read "(214+25)/31"), a `/` for a `7`. The character boxes tell them apart, as the seed's
/// "text rectangles with character boxes" meant: digits share one height, top and baseline; a
/// `+`, `*` or `-` is smaller than a digit, `*` sits high, `-` is flat; `/` and brackets reach
/// past the digits' top and baseline; a second character over the same place as another is
/// one character read twice.
enum MathGeometry {
    /// The lines of `observations` that share a row (each overlapping the next vertically by
    /// at least half the shorter one's height) joined left to right into one line each, in the
    /// order of their first line: Tesseract cuts a large, slightly turned expression into
    /// several lines ("5" and "08*210"), and the largest of them is only part of it.
    static func rows(_ observations: [RecognizedTextObservation]) -> [RecognizedTextObservation] {
        var rows: [[RecognizedTextObservation]] = []
        for observation in observations {
            let box = observation.line.pixelBox
            if let i = rows.firstIndex(where: { row in
                row.contains { other in
                    let o = other.line.pixelBox
                    let shared = min(o.bottom, box.bottom) - max(o.top, box.top)
                    return shared * 2 >= min(o.height, box.height)
                }
            }) {
                rows[i].append(observation)
            } else {
                rows.append([observation])
            }
        }
        return rows.map { row in
            guard row.count > 1, let first = row.first else { return row[0] }
            var line = TextLine()
            line.words = row.flatMap(\.line.words).sorted { ($0.box?.x ?? 0) < ($1.box?.x ?? 0) }
            line.text = line.words.map(\.text).joined(separator: " ")
            line.confidence = row.map(\.confidence).min() ?? 0
            let box = PixelBox.union(row.map(\.line.pixelBox))
            line.box = BoundingBox.with {
                $0.x = Int32(box.left); $0.y = Int32(box.top); $0.width = UInt32(max(0, box.width)); $0.height = UInt32(max(0, box.height))
            }
            return RecognizedTextObservation(line: line, pageIndex: first.pageIndex, imageWidth: first.imageWidth, imageHeight: first.imageHeight)
        }
    }

    /// A character read on the line, with its box.
    struct Character: Equatable {
        var text: String
        var box: PixelBox
        var confidence: Float
    }

    /// `line`'s characters (its words' symbols, left to right) read again from their
    /// geometry; nil when the line has no symbols or no digit to measure the others against.
    static func reading(_ line: TextLine) -> String? {
        let characters = line.words.flatMap { word in
            word.symbols.compactMap { s in s.box.map { Character(text: s.text, box: PixelBox($0), confidence: s.confidence) } }
        }
        return reading(characters)
    }

    static func reading(_ characters: [Character]) -> String? {
        let digits = characters.filter { $0.text.count == 1 && $0.text.first!.isNumber }
        guard !digits.isEmpty else { return nil }
        func median(_ values: [Int]) -> Double { Double(values.sorted()[values.count / 2]) }
        let metrics = Metrics(height: median(digits.map(\.box.height)), top: median(digits.map(\.box.top)),
                              bottom: median(digits.map(\.box.bottom)))
        guard metrics.height > 0 else { return nil }
        var kept: [Character] = []
        for character in characters {
            if let last = kept.last, overlapShare(last.box, character.box) >= duplicateOverlap {
                // One character read twice: keep the reading its shape fits.
                let merged = Character(text: "", box: last.box.union(character.box), confidence: 0)
                let fitsLast = metrics.fits(last.text, merged.box), fitsThis = metrics.fits(character.text, merged.box)
                if fitsThis && !fitsLast || fitsThis == fitsLast && character.confidence > last.confidence {
                    kept[kept.count - 1] = character
                }
                continue
            }
            kept.append(character)
        }
        return kept.map { metrics.correct($0) }.joined()
    }

    /// The share of the narrower box's width that two boxes share.
    static func overlapShare(_ a: PixelBox, _ b: PixelBox) -> Double {
        let shared = min(a.right, b.right) - max(a.left, b.left)
        return Double(max(0, shared)) / Double(max(1, min(a.width, b.width)))
    }

    /// Two characters sharing this much of the narrower one's width are one character.
    static let duplicateOverlap = 0.6

    /// The digits' height, top and baseline on the line (medians, in pixels).
    struct Metrics {
        var height: Double
        var top: Double
        var bottom: Double

        /// What a box of this size and place can be.
        enum Shape { case digitHeight, pastBoth, raisedSmall, flat, smallCentred, dot, other }

        func shape(_ box: PixelBox) -> Shape {
            let (h, w) = (Double(box.height), Double(box.width))
            let (boxTop, boxBottom) = (Double(box.top), Double(box.bottom))
            let middle = (top + bottom) / 2, centre = (boxTop + boxBottom) / 2
            if boxTop < top - 0.1 * height && boxBottom > bottom + 0.1 * height { return .pastBoth }
            if h >= 0.8 * height { return .digitHeight }
            if h <= 0.25 * height && boxBottom >= bottom - 0.15 * height && w <= 0.4 * height { return .dot }
            if h <= 0.25 * height && w >= 1.5 * h && abs(centre - middle) <= 0.25 * height { return .flat }
            if h <= 0.7 * height && centre < middle - 0.12 * height { return .raisedSmall }
            if h <= 0.75 * height && abs(centre - middle) <= 0.15 * height && w >= 0.5 * h { return .smallCentred }
            return .other
        }

        /// Whether `text` can have a box of this shape.
        func fits(_ text: String, _ box: PixelBox) -> Bool {
            switch shape(box) {
            case .digitHeight: text.first.map { $0.isNumber } ?? false
            case .pastBoth: ["(", ")", "/"].contains(text)
            case .raisedSmall: ["*", "^"].contains(text)
            case .flat: ["-", "−", "—", "–"].contains(text)
            case .smallCentred: ["+", "*", "x", "×", "÷"].contains(text)
            case .dot: text == "."
            case .other: true
            }
        }

        /// `character`'s text, or the operator its shape says it is where a digit was read.
        func correct(_ character: Character) -> String {
            let text = character.text
            guard text.count == 1, let c = text.first, c.isNumber else { return text }
            switch shape(character.box) {
            case .raisedSmall: return "*"
            case .smallCentred: return "+"
            case .flat: return "-"
            case .dot: return "."
            case .pastBoth: return c == "1" || c == "7" ? "/" : text
            case .digitHeight, .other: return text
            }
        }
    }
}
