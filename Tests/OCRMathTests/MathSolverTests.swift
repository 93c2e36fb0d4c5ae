import Foundation
import OCRTestSupport
import OCRWire
import Testing
@testable import OCRClient
@testable import OCRMath

/// MathSolver's request to the cluster and the boxes its answers point at.
@Suite struct MathRequestTests {
    @Test func mathSolverRequest() throws {
        var solver = MathSolver()
        solver.baseOptions.languages = "eng+deu"
        solver.baseOptions.level = .fast
        let options = try solver.request.recognitionOptions()
        #expect(options.characterWhitelist == MathSolver.characterWhitelist)
        #expect(options.pageSegmentationMode == .singleBlock)
        #expect(options.languageCorrection == false)
        #expect(options.languages == "eng+deu")
        #expect(options.level == .fast)
        #expect(options.candidates == 3)
    }

    /// Boxes of every substring of a line lie within the box of the word they belong to, and
    /// the flip puts lines higher on the page at larger y.
    @Test func substringBoxesOfAnExpressionStayInTheirWords() throws {
        let page = MathSolverTests.page([["(1+2)", "x", "3"], ["7/8"]])
        let observations = page.recognizedTextObservations
        #expect(observations[0].boundingBox.minY > observations[1].boundingBox.maxY)
        let text = try #require(observations[0].topCandidates(1).first)
        for word in observations[0].line.words {
            let range = try #require(text.string.range(of: word.text))
            let wordRect = NormalizedRect(imageRect: word.box!, imageWidth: 400, imageHeight: 200)
            var i = range.lowerBound
            while i < range.upperBound {
                let next = text.string.index(after: i)
                #expect(wordRect.contains(try #require(text.boundingBox(for: i..<next))))
                i = next
            }
        }
    }
}

@Suite struct MathSolverTests {
    /// A 400x200 page with one line per entry of `lines` (each a list of words), 40 px apart;
    /// `sizes` gives each line's character height (default 20).
    static func page(_ lines: [[String]], sizes: [Int] = [], candidates: [String: [(String, Float)]] = [:],
                     file: String = "sum.png", index: Int = 0) -> PageResult {
        var y = 10
        let textLines = lines.enumerated().map { n, words -> TextLine in
            let height = n < sizes.count ? sizes[n] : 20
            var x = 10
            let built = words.map { text -> Word in
                let word = WirePages.word(text, x: x, y: y, advance: height / 2, height: height, candidates: candidates[text] ?? [])
                x += text.count * height / 2 + 8
                return word
            }
            y += height + 20
            return WirePages.line(built)
        }
        return PageResult.with {
            $0.pageIndex = UInt32(index)
            $0.file = file
            $0.filePage = 1
            $0.width = 400
            $0.height = 200
            $0.blocks = [WirePages.block([WirePages.paragraph(textLines)])]
        }
    }

    @Test func largestRegionIsTheExpression() {
        // A small question number above a large expression.
        let page = Self.page([["7."], ["(1+2)", "x", "3/5"]], sizes: [10, 30])
        let answers = MathSolver().answers(for: Document(results: [page]))
        #expect(answers.count == 1)
        #expect(answers[0].lines.map { (try? $0.get())?.description } == ["(1+2)*3/5 = 1.8"])
        #expect(answers[0].isSolved)
        #expect(MathReport(answers).output == "(1+2)*3/5 = 1.8\n")
    }

    @Test func allLinesAnswersEveryLineAndNamesTheBadOnes() {
        let page = Self.page([["1/3"], ["3+*4"], ["1/(2-2)"], ["2^10"]])
        let answers = MathSolver(selection: .allLines).answers(for: Document(results: [page]))
        let report = MathReport(answers)
        #expect(report.output == "1/3 = 1/3 (0.3333...)\n2^10 = 1024\n")
        #expect(report.problems == [
            "sum.png page 1 line 2: invalid expression '3+*4': '*' at position 3 has no left operand",
            "sum.png page 1 line 3: division by zero in '1/(2-2)': 1 / 0",
        ])
        #expect(report.unsolvedLines == 2 && report.failedPages == 0)
        #expect(!answers[0].isSolved)
    }

    @Test func candidatesAreTriedWhenTheBestReadingDoesNotParse() {
        // The engine's best reading "1+.2" is not an expression; its candidate "1+2" is.
        let page = Self.page([["(1+.2)x3"]], candidates: ["(1+.2)x3": [("(1+2)x3", 0.5)]])
        let answer = MathSolver().answers(for: Document(results: [page]))[0]
        #expect((try? answer.lines[0].get())?.description == "(1+2)*3 = 9")
        #expect((try? answer.lines[0].get())?.recognizedText == "(1+2)x3")
        // With one candidate only, the error is the best reading's, with what was read.
        let strict = MathSolver(candidates: 1).answers(for: Document(results: [page]))[0]
        guard case .failure(let error)? = strict.lines.first else { Issue.record("solved"); return }
        #expect(error.description == "sum.png page 1: invalid expression '(1+.2)*3': a decimal point needs digits on both sides, at position 4 (read as '(1+.2)x3')")
        // A division by zero in the best reading is the answer: no candidate is tried.
        let zero = Self.page([["4/0"]], candidates: ["4/0": [("4/6", 0.5)]])
        guard case .failure(let z)? = MathSolver().answers(for: Document(results: [zero]))[0].lines.first else { Issue.record("solved"); return }
        #expect(z.error.kind == .divisionByZero)
    }

    @Test func readingsVoteAndTiesGoToTheFirst() {
        // Legacy, LSTM, combined readings of one page, as separate documents.
        func readings(_ texts: [String]) -> [Document] { texts.map { Document(results: [Self.page([[$0]])]) } }
        func answer(_ texts: [String]) -> String? {
            (try? MathSolver().answers(forReadings: readings(texts))[0].lines[0].get())?.description
        }
        #expect(answer(["65+97", "654+97", "654+97"]) == "654+97 = 751", "two readings agree")
        #expect(answer(["65+97", "654+97", "65+97"]) == "65+97 = 162")
        #expect(answer(["65+97", "654+97", "6+597"]) == "65+97 = 162", "a tie goes to the first reading")
        // A reading that does not parse has no vote; the same value written differently agrees.
        #expect(answer(["224*(87", "224x787", "224*787"]) == "224*787 = 176288")
        #expect(answer(["3+*4", "12/4", "6/2"]) == "12/4 = 3")
        // No reading parses: the first reading's error, naming what it read.
        let none = MathSolver().answers(forReadings: readings(["3+*4", "(1", "*"]))[0]
        guard case .failure(let error)? = none.lines.first else { Issue.record("solved"); return }
        #expect(error.recognizedText == "3+*4" && error.error.isInvalidExpression)
        // A division by zero parses: it votes, and wins as an outcome of its own.
        guard case .failure(let zero)? = MathSolver().answers(forReadings: readings(["4/0", "8/0", "4/6"]))[0].lines.first else {
            Issue.record("solved"); return
        }
        #expect(zero.error.kind == .divisionByZero)
        // A reading whose page failed (no legacy model on the worker) leaves the others.
        var failed = Document(results: [], pageCount: 1)
        failed.addFailure(pageIndex: 0, error: OCRError(.failedPrecondition, "the legacy engine needs models with the legacy part", file: "sum.png"))
        let rest = MathSolver().answers(forReadings: [failed] + readings(["6x7", "6x7"]))[0]
        #expect(rest.pageError == nil && (try? rest.lines[0].get())?.description == "6*7 = 42")
    }

    @Test func allLinesVoteLineByLineAcrossReadings() {
        // The second reading found an extra line (a speck) between the two; lines are matched by height.
        let first = Self.page([["1+1"], ["2x3"]])
        let second = Self.page([["1+1"], ["."], ["2x3"]], sizes: [20, 4, 20])
        let third = Self.page([["1+7"], ["2x3"]])
        let answers = MathSolver(selection: .allLines).answers(forReadings: [first, second, third].map { Document(results: [$0]) })
        #expect(answers[0].lines.map { (try? $0.get())?.description } == ["1+1 = 2", "2*3 = 6"])
    }

    @Test func pagesWithoutTextOrResultAreReported() {
        let empty = PageResult.with { $0.file = "blank.png"; $0.filePage = 1; $0.width = 10; $0.height = 10 }
        let good = Self.page([["6x7"]], file: "b.tiff", index: 1)
        var document = Document(results: [empty, good], pageCount: 3)
        document.addFailure(pageIndex: 2, error: OCRError(.invalidArgument, "cannot decode", file: "c.png"))
        let report = MathReport(MathSolver().answers(for: document))
        #expect(report.output == "b.tiff page 1: 6*7 = 42\n")
        #expect(report.problems.count == 2)
        #expect(report.problems[0] == "blank.png page 1: invalid expression: no text was recognised")
        #expect(report.problems[1].hasPrefix("page 3 of the job failed: "))
        #expect(report.problems[1].contains("c.png"))
        #expect(report.failedPages == 1 && report.unsolvedLines == 1)
    }

    @Test func solveNormalisesOCRText() throws {
        #expect(try MathSolver.solve("(1 + 2) × 3 ÷ 5").description == "(1+2)*3/5 = 1.8")
        #expect(try MathSolver.solve("1O5 — 4 =").description == "105-4 = 101")
        #expect(try MathSolver.solve("1/3").description == "1/3 = 1/3 (0.3333...)")
        #expect(throws: MathError.self) { try MathSolver.solve("hello") }
    }
}
