import Foundation
import OCRClient
import OCRWire

/// Reads printed arithmetic from scans and computes it exactly: MathSolver.
///
/// Pages are recognised by the cluster with a whitelist of digits, operators and brackets and
/// single-block segmentation. On each page the largest text region is the expression (as the
/// original MathSolver app chose), or every line with `.allLines`. Each reading is normalised
/// (`MathOCRNormalizer`: `x`/`×` -> `*`, `÷` -> `/`, dashes -> `-`, `O`/`l` between digits),
/// checked against the grammar (`MathExpression`) and evaluated with exact rational arithmetic.
/// When the engine's best reading does not parse, its next candidates are tried in order.
///
/// Every page is read several times, one job per recogniser in ``engineModes``: Tesseract's
/// legacy recogniser (it reads clean printed `+`, `*` and `/` that the LSTM model takes for
/// digits), the LSTM recogniser, and both combined with the full model. The value most readings
/// agree on wins; a tie goes to the reading listed first; a reading that does not parse has no
/// vote. A page whose legacy readings fail (a worker without the full model) is answered by
/// the others.
///
/// ```swift
/// let answers = try await MathSolver().solve(files: [URL(fileURLWithPath: "sum.png")], using: client)
/// print(answers[0].lines[0])   // (1+2)*3/5 = 1.8
/// ```
public struct MathSolver: Sendable {
    /// Which lines of a page are expressions.
    public enum Selection: Sendable, Hashable {
        /// The line with the largest bounding box (the seed app's choice).
        case largestRegion
        /// Every line, in reading order.
        case allLines
    }

    /// The characters recognition may produce. `×`, `÷`, `−` and `^` are listed for models that
    /// know them (eng's LSTM model has `x`, `*`, `/` and dashes but none of those four).
    public static let characterWhitelist = "0123456789.+-*/^()x×÷−—–"

    /// Which text of a page is read as the expression.
    public var selection: Selection
    /// Other recognition options (languages, level, deskew, page ranges...); MathSolver's own
    /// settings (whitelist, segmentation, candidates, no language correction) are written over them.
    public var baseOptions = RecognitionOptions()
    /// Readings per line tried before giving up on a line that does not parse (1...10).
    public var candidates: Int
    /// The recognisers that read every page, one job each, in order of trust (a tie between
    /// values goes to the first). Empty: the LSTM recogniser alone.
    public var engineModes: [EngineMode]

    /// Legacy, LSTM, combined: on 60 unspaced expressions in five common fonts the `tesseract`
    /// CLI with MathSolver's whitelist read 59 right with the legacy recogniser, 56 with LSTM and
    /// 57 combined, and the vote 60 (BENCHMARKS.md, MathSolver accuracy).
    public static let defaultEngineModes: [EngineMode] = [.legacy, .unspecified, .combined]

    /// A solver reading `selection` with `candidates` OCR alternatives per word, once per
    /// recogniser in `engineModes`.
    public init(selection: Selection = .largestRegion, candidates: Int = 3, engineModes: [EngineMode] = MathSolver.defaultEngineModes) {
        self.selection = selection
        self.candidates = min(10, max(1, candidates))
        self.engineModes = engineModes
    }

    /// The recognition request of the LSTM reading: the whitelist, a single uniform block of
    /// text (Tesseract psm 6), no dictionary correction, `candidates` readings per word.
    public var request: RecognizeTextRequest { request(for: .unspecified) }

    /// The recognition requests MathSolver sends, one per reading (``engineModes``), in order.
    public var requests: [RecognizeTextRequest] {
        (engineModes.isEmpty ? [.unspecified] : engineModes).map { request(for: $0) }
    }

    /// ``request`` with the recogniser `mode`.
    public func request(for mode: EngineMode) -> RecognizeTextRequest {
        var request = RecognizeTextRequest()
        request.baseOptions = baseOptions
        request.baseOptions.engineMode = mode
        if !baseOptions.languages.isEmpty {
            request.recognitionLanguages = baseOptions.languages.split(separator: "+").map(String.init)
        }
        request.recognitionLevel = baseOptions.level == .fast ? .fast : .accurate
        request.characterWhitelist = Self.characterWhitelist
        request.pageSegmentationMode = .singleBlock
        request.usesLanguageCorrection = false
        request.maximumCandidates = candidates
        return request
    }

    // MARK: Pure parts

    /// Normalises, parses and evaluates one reading.
    public static func solve(_ text: String) throws(MathError) -> MathSolution {
        let expression = MathOCRNormalizer.normalize(text)
        let parsed = try MathExpression(expression)
        return MathSolution(recognizedText: text, expression: expression, value: try parsed.evaluate())
    }

    /// The answer for one recognised line: its best reading that parses (a division by zero
    /// in a reading that parses is that line's answer); the best reading's error when none parses.
    /// The first reading tried is the line's characters read again from their boxes
    /// (``MathGeometry``: a small raised `4` is a `*`), then the recogniser's own.
    public func answer(for observation: RecognizedTextObservation) -> Result<MathSolution, MathError> {
        var firstError: MathError?
        var readings = observation.topCandidates(candidates).map(\.string)
        if let geometric = MathGeometry.reading(observation.line), !readings.contains(geometric) { readings.insert(geometric, at: 0) }
        for reading in readings {
            do {
                return .success(try Self.solve(reading))
            } catch where error.isInvalidExpression {
                if firstError == nil { firstError = error }
            } catch {
                return .failure(error)
            }
        }
        return .failure(firstError ?? MathError(.empty, "no text was recognised"))
    }

    /// The lines of a page that hold expressions, per `selection`.
    /// Lines Tesseract cut from one row are joined first (``MathGeometry/rows(_:)``).
    public func expressionLines(_ observations: [RecognizedTextObservation]) -> [RecognizedTextObservation] {
        let observations = MathGeometry.rows(observations)
        switch selection {
        case .allLines:
            return observations
        case .largestRegion:
            // The largest box; the first of equals.
            var best: RecognizedTextObservation?
            for observation in observations {
                let area = observation.boundingBox.width * observation.boundingBox.height
                if let b = best, b.boundingBox.width * b.boundingBox.height >= area { continue }
                best = observation
            }
            return best.map { [$0] } ?? []
        }
    }

    /// Answers for every page of a recognised document, in page order.
    public func answers(for document: Document) -> [MathPageAnswer] { answers(forReadings: [document]) }

    /// Answers for every page, from several readings of the same pages (one document per
    /// reading, in order of trust): each line's value is the one most readings agree on, a tie
    /// going to the earlier reading; readings that do not parse have no vote. Lines are those of
    /// the first reading that recognised the page; with `.allLines`, another reading's line
    /// counts for the line whose height holds its middle.
    public func answers(forReadings documents: [Document]) -> [MathPageAnswer] {
        let pageCount = documents.map(\.pages.count).max() ?? 0
        return (0..<pageCount).map { index in
            let pages = documents.compactMap { index < $0.pages.count ? $0.pages[index] : nil }
            let results = pages.compactMap(\.result)
            guard let frame = results.first else {
                let error = pages.first?.error ?? OCRError(.unavailable, "page \(index + 1) was not recognised")
                return MathPageAnswer(pageIndex: pages.first?.pageIndex ?? index, file: error.file ?? "", filePage: 0, lines: [], pageError: error)
            }
            let file = frame.file, filePage = Int(frame.filePage == 0 ? 1 : frame.filePage)
            let pageIndex = Int(frame.pageIndex)
            let frameLines = expressionLines(frame.recognizedTextObservations)
            guard !frameLines.isEmpty else {
                let error = MathSolverError(file: file, page: filePage, line: nil, recognizedText: "",
                                            error: MathError(.empty, "no text was recognised"))
                return MathPageAnswer(pageIndex: pageIndex, file: file, filePage: filePage, lines: [.failure(error)], pageError: nil)
            }
            let others = results.dropFirst().map { expressionLines($0.recognizedTextObservations) }
            let numbered = selection == .allLines
            let answers = frameLines.enumerated().map { number, line -> Result<MathSolution, MathSolverError> in
                var readings = [answer(for: line)]
                for lines in others {
                    let match = numbered ? Self.line(in: lines, across: line) : lines.first
                    if let match { readings.append(answer(for: match)) }
                }
                return Self.vote(readings).mapError {
                    MathSolverError(file: file, page: filePage, line: numbered ? number + 1 : nil,
                                    recognizedText: line.topCandidates(1).first?.string ?? "", error: $0)
                }
            }
            return MathPageAnswer(pageIndex: pageIndex, file: file, filePage: filePage, lines: answers, pageError: nil)
        }
    }

    /// The line of `lines` whose middle lies within `frame`'s height, nearest its middle.
    static func line(in lines: [RecognizedTextObservation], across frame: RecognizedTextObservation) -> RecognizedTextObservation? {
        let box = frame.boundingBox
        return lines.filter { (box.minY...box.maxY).contains($0.boundingBox.midY) }
            .min { abs($0.boundingBox.midY - box.midY) < abs($1.boundingBox.midY - box.midY) }
    }

    /// The outcome most readings agree on (a value, or a division by zero: expressions that
    /// parse), a tie going to the earliest; readings that do not parse have no vote. When none
    /// parses, the first reading's error.
    static func vote(_ readings: [Result<MathSolution, MathError>]) -> Result<MathSolution, MathError> {
        var groups: [(outcome: Result<MathSolution, MathError>, votes: Int)] = []
        for reading in readings {
            if case .failure(let error) = reading, error.isInvalidExpression { continue }
            if let i = groups.firstIndex(where: { Self.sameOutcome($0.outcome, reading) }) {
                groups[i].votes += 1
            } else {
                groups.append((reading, 1))
            }
        }
        // max(by:) keeps the first of equals (it replaces only on a strictly greater one): the
        // earliest reading's outcome wins a tie.
        if let best = groups.max(by: { $0.votes < $1.votes }) { return best.outcome }
        return readings.first ?? .failure(MathError(.empty, "no text was recognised"))
    }

    private static func sameOutcome(_ a: Result<MathSolution, MathError>, _ b: Result<MathSolution, MathError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x.value == y.value
        case (.failure(let x), .failure(let y)): x.kind == y.kind
        default: false
        }
    }

    // MARK: Over the cluster

    /// Recognises `files` once per reading (one job each, at the same time) and answers every page.
    public func solve(files: [URL], using client: OCRClient) async throws -> [MathPageAnswer] {
        try await readAll { _, request in try await request.document(on: files, using: client) }
    }

    /// Recognises in-memory files once per reading (one job each, at the same time) and answers
    /// every page. `progress` hears the first reading's job.
    public func solve(inputs: [InputFile], using client: OCRClient,
                      progress: (@Sendable (JobEvent) -> Void)? = nil) async throws -> [MathPageAnswer] {
        try await readAll { index, request in
            let job = try await client.submit(inputs: inputs, options: try request.recognitionOptions())
            return try await client.document(for: job, progress: index == 0 ? progress : nil)
        }
    }

    /// The documents of every reading, in order, then the answers. A reading whose job cannot be
    /// run is left out; when none can, the first one's error is thrown.
    private func readAll(_ read: @escaping @Sendable (Int, RecognizeTextRequest) async throws -> Document) async throws -> [MathPageAnswer] {
        let requests = requests
        let outcomes = await withTaskGroup(of: (Int, Result<Document, any Error>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    // Each reading keeps its own index. Written as one `return (index, .success(try
                    // await ...))` inside do/catch, the release build (Swift 6.3) returned index 0
                    // from every task: the three readings overwrote one slot, one random reading
                    // answered alone, and the same build solved 26 or 27 of 30 expressions.
                    let outcome: Result<Document, any Error>
                    do { outcome = .success(try await read(index, request)) } catch { outcome = .failure(error) }
                    return (index, outcome)
                }
            }
            var outcomes = [Result<Document, any Error>?](repeating: nil, count: requests.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
        let documents = outcomes.compactMap { try? $0.get() }
        if documents.isEmpty, let first = outcomes.first { _ = try first.get() }
        return answers(forReadings: documents)
    }
}

/// An expression read from a page and its exact value.
public struct MathSolution: Sendable, Equatable, CustomStringConvertible {
    /// What recognition read.
    public let recognizedText: String
    /// The normalised expression that was evaluated.
    public let expression: String
    /// The exact value.
    public let value: Rational

    /// `expression = value`: `(1+2)*3/5 = 1.8`, `1/3 = 1/3 (0.3333...)`.
    public var description: String { "\(expression) = \(value)" }
}

/// A line that gave no value, with the file and page it is on.
public struct MathSolverError: Error, Sendable, CustomStringConvertible {
    /// The input file the page is from.
    public let file: String
    /// 1-based page number within `file`.
    public let page: Int
    /// 1-based line number on the page (with `.allLines` only).
    public let line: Int?
    /// What recognition read (before normalisation).
    public let recognizedText: String
    /// Why the expression could not be evaluated.
    public let error: MathError

    /// `sum.png page 1: invalid expression '3+*4': '*' at position 3 has no left operand`.
    public var description: String {
        let place = "\(file.isEmpty ? "<input>" : file) page \(page)" + (line.map { " line \($0)" } ?? "")
        let read = recognizedText.isEmpty || recognizedText == error.expression ? "" : " (read as '\(recognizedText)')"
        return "\(place): \(error)\(read)"
    }
}

/// The answers of one page.
public struct MathPageAnswer: Sendable {
    /// Zero-based index of the page in the job.
    public let pageIndex: Int
    /// The input file the page is from.
    public let file: String
    /// 1-based page number within `file` (0 when the page failed before recognition).
    public let filePage: Int
    /// One entry per expression line (one with `.largestRegion`), in reading order.
    public let lines: [Result<MathSolution, MathSolverError>]
    /// Set when the page itself could not be recognised; `lines` is then empty.
    public let pageError: OCRError?

    /// True when the page was recognised and every line has a value.
    public var isSolved: Bool {
        pageError == nil && !lines.isEmpty && lines.allSatisfy { if case .success = $0 { true } else { false } }
    }
}

/// What `ocr-submit --math` prints: one `expression = value` line per answered line on standard
/// output (prefixed `FILE page N: ` when the job has more than one page), one message per
/// problem for standard error, and counts for the exit status.
public struct MathReport: Sendable {
    /// Lines for standard output, each ending in a newline.
    public let output: String
    /// Messages for standard error (no trailing newline), each naming its file and page.
    public let problems: [String]
    /// Pages that could not be recognised at all.
    public let failedPages: Int
    /// Lines that gave no value (invalid, division by zero, nothing recognised).
    public let unsolvedLines: Int

    /// A report over `answers`, in page order.
    public init(_ answers: [MathPageAnswer]) {
        let prefixed = answers.count > 1
        var output = "", problems: [String] = []
        var failedPages = 0, unsolved = 0
        for page in answers {
            if let error = page.pageError {
                failedPages += 1
                problems.append("page \(page.pageIndex + 1) of the job failed: \(error)")
                continue
            }
            for line in page.lines {
                switch line {
                case .success(let solution):
                    output += (prefixed ? "\(page.file) page \(page.filePage): " : "") + "\(solution)\n"
                case .failure(let error):
                    unsolved += 1
                    problems.append(error.description)
                }
            }
        }
        self.output = output
        self.problems = problems
        self.failedPages = failedPages
        self.unsolvedLines = unsolved
    }
}
