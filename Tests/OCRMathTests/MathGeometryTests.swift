import OCRWire
import Testing
@testable import OCRClient
@testable import OCRMath

/// MathSolver's reading from character boxes (pure: boxes in, text out). Digits here are 100 px
/// tall from y = 100 to 200, 60 px wide, 70 px apart.
@Suite struct MathGeometryTests {
    static func character(_ text: String, x: Int, top: Int = 100, height: Int = 100, width: Int = 60, confidence: Float = 0.9) -> MathGeometry.Character {
        MathGeometry.Character(text: text, box: PixelBox(left: x, top: top, right: x + width, bottom: top + height), confidence: confidence)
    }

    /// "65+97*56": the `*` is small and high, read as a `4`; the `+` is small and centred, read as a `4` too.
    @Test func smallOperatorsReadAsDigitsAreOperators() {
        func c(_ t: String, x: Int, top: Int = 100, height: Int = 100, width: Int = 60, confidence: Float = 0.9) -> MathGeometry.Character {
            Self.character(t, x: x, top: top, height: height, width: width, confidence: confidence)
        }
        let line = [c("6", x: 0), c("5", x: 70), c("4", x: 140, top: 125, height: 50, width: 50),
                    c("9", x: 210), c("7", x: 280), c("4", x: 350, top: 105, height: 45, width: 45), c("5", x: 420), c("6", x: 490)]
        #expect(MathGeometry.reading(line) == "65+97*56")
        // Digits of the digits' height stay digits, and a reading that fits is left alone.
        #expect(MathGeometry.reading([c("1", x: 0), c("4", x: 70), c("-", x: 140, top: 145, height: 10, width: 50), c("7", x: 210)]) == "14-7")
    }

    /// "(21+25)/31" read "(214+25)/31": a `4` over the same place as the `+` is the `+` read
    /// twice; the `+`'s shape wins. A `7` reaching past the digits' top and baseline is a `/`.
    @Test func aCharacterReadTwiceIsReadOnceAndASlashIsASlash() {
        func c(_ t: String, x: Int, top: Int = 100, height: Int = 100, width: Int = 60, confidence: Float = 0.9) -> MathGeometry.Character {
            Self.character(t, x: x, top: top, height: height, width: width, confidence: confidence)
        }
        let line = [c("(", x: 0, top: 85, height: 130, width: 30), c("2", x: 40), c("1", x: 110),
                    c("4", x: 180, top: 120, height: 60, width: 60, confidence: 0.95), c("+", x: 185, top: 125, height: 55, width: 55, confidence: 0.5),
                    c("2", x: 250), c("5", x: 320), c(")", x: 390, top: 85, height: 130, width: 30),
                    c("7", x: 430, top: 80, height: 140, width: 40), c("3", x: 480), c("1", x: 550)]
        #expect(MathGeometry.reading(line) == "(21+25)/31")
    }

    @Test func noDigitsNoReading() {
        #expect(MathGeometry.reading([Self.character("+", x: 0)]) == nil)
        #expect(MathGeometry.reading([]) == nil)
    }

    /// Tesseract cut "508 * 210" into two lines, "5" and "08 * 210": they share a row, so they
    /// are one line again, read left to right; a line below is not joined.
    @Test func linesOfOneRowAreJoined() {
        func observation(_ words: [(String, Int, Int)]) -> RecognizedTextObservation {
            var line = TextLine()
            line.words = words.map { text, x, top in
                Word.with { $0.text = text; $0.box = BoundingBox.with { $0.x = Int32(x); $0.y = Int32(top); $0.width = 60; $0.height = 100 } }
            }
            line.text = line.words.map(\.text).joined(separator: " ")
            return RecognizedTextObservation(line: line, imageWidth: 1000, imageHeight: 600)
        }
        let rows = MathGeometry.rows([observation([("08", 80, 110), ("*", 160, 110), ("210", 240, 110)]), observation([("5", 0, 100)]),
                                      observation([("7", 0, 400)])])
        #expect(rows.map(\.line.text) == ["5 08 * 210", "7"])
        #expect(rows[0].line.pixelBox == PixelBox(left: 0, top: 100, right: 300, bottom: 210))
        #expect(MathSolver().expressionLines([observation([("5", 0, 100)]), observation([("08", 80, 110), ("*", 160, 110), ("210", 240, 110)])])
            .map(\.line.text) == ["5 08 * 210"])
    }
}
