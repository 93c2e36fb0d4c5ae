import OCRBasics
import OCRStructure
import OCRWire

/// `DocumentFormat.json`: one JSON object, compact, UTF-8, ending with a newline. Keys are
/// always present and always in this order (a stable shape for scripts and other languages):
///
/// ```
/// { "version": 1,                       // bumped only on an incompatible change
///   "software": "ocr-cluster", "languages": ["eng"],
///   "pageCount": 3,
///   "gaps": [1],                        // pageIndex of every failed or missing page
///   "pages": [                          // one per page, in page order
///     {"pageIndex": 0, "state": "OK", "result": PageResult,
///      "structure": [element, ...],    // headings, paragraphs, lists, tables (StructureJSON.swift)
///      "detectedData": [{"kind": "date", "text": "3 May 2024", "box": {...}}, ...]},
///     {"pageIndex": 1, "state": "FAILED", "status": Status},
///     {"pageIndex": 2, "state": "MISSING"} ] }
/// ```
///
/// `PageResult` and `Status` are in protobuf's canonical JSON mapping of `proto/ocr/v1`
/// (lowerCamelCase names, 64-bit integers as strings, enums by name, absent messages `null`)
/// with every field written, so `google.protobuf.json_format.Parse` reads them:
/// `PageResult {pageIndex, file, filePage, width, height, dpi, rotationDegrees, skewDegrees,
/// timings, workerUid, blocks, text, meanConfidence, attempt, textSource, pageQuad,
/// dewarped, rules: [box]}` -> `Block {text, confidence, box,
/// type, paragraphs}` -> `Paragraph {text, confidence, box, lines}` -> `TextLine {text,
/// confidence, box, words, baseline}` -> `Word {text, confidence, box, candidates: [{text,
/// confidence}], symbols: [{text, confidence, box}], fromDictionary}`; `box` is
/// `{x, y, width, height}` in pixels, top-left origin; confidences are 0...1. The worker's
/// `layout` is not repeated: the page's `structure` is what the client made of it over the job.
/// `Status {code: "DEADLINE_EXCEEDED", message, file, pageIndex, details}`.
enum JSONRenderer {
    static let version = 1

    static func render(_ document: Document) -> String {
        let pages = document.pages
        let structures = Dictionary(document.structure.map { ($0.pageIndex, $0) }, uniquingKeysWith: { first, _ in first })
        let root = JSON.object([
            ("version", .int(version)),
            ("software", .string(document.software)),
            ("languages", .array(document.languages.map(JSON.string))),
            ("pageCount", .int(document.pageCount)),
            ("gaps", .array(pages.filter { $0.result == nil }.map { .int($0.pageIndex) })),
            ("pages", .array(pages.map { page($0, structure: structures[$0.pageIndex]) })),
        ])
        var out = ""
        root.write(to: &out)
        return out + "\n"
    }

    static func page(_ page: Document.Page, structure: PageStructure?) -> JSON {
        switch page {
        case .recognized(let result):
            .object([("pageIndex", .int(page.pageIndex)), ("state", .string("OK")), ("result", json(result)),
                     ("structure", structure.map(StructureJSON.json) ?? .array([])),
                     ("detectedData", .array((structure?.detectedData ?? []).map(StructureJSON.json)))])
        case .failed(let index, let error):
            .object([("pageIndex", .int(index)), ("state", .string("FAILED")), ("status", json(error.status))])
        case .missing(let index):
            .object([("pageIndex", .int(index)), ("state", .string("MISSING"))])
        }
    }

    static func json(_ r: PageResult) -> JSON {
        .object([
            ("pageIndex", .int(Int(r.pageIndex))),
            ("file", .string(r.file)),
            ("filePage", .int(Int(r.filePage))),
            ("width", .int(Int(r.width))),
            ("height", .int(Int(r.height))),
            ("dpi", .int(Int(r.dpi))),
            ("rotationDegrees", .int(Int(r.rotationDegrees))),
            ("skewDegrees", .double(r.skewDegrees)),
            ("timings", r.timings.map { t in
                .object([
                    ("decodeUs", .string(String(t.decodeUs))),
                    ("preprocessUs", .string(String(t.preprocessUs))),
                    ("recognizeUs", .string(String(t.recognizeUs))),
                    ("totalUs", .string(String(t.totalUs))),
                    ("queueUs", .string(String(t.queueUs))),
                    ("steps", .array(t.steps.map { .object([("step", .string($0.step)), ("cpuUs", .string(String($0.cpuUs)))]) })),
                ])
            } ?? .null),
            ("workerUid", .string(String(r.workerUid))),
            ("blocks", .array(r.blocks.map(json))),
            ("text", .string(r.text)),
            ("meanConfidence", .float(r.meanConfidence)),
            ("attempt", .int(Int(r.attempt))),
            ("textSource", enumValue(r.textSource.protoName, r.textSource.rawValue)),
            ("pageQuad", .array(r.pageQuad.map { .int(Int($0)) })),
            ("dewarped", .bool(r.dewarped)),
            ("rules", .array(r.rules.map { json(Optional($0)) })),
        ])
    }

    static func json(_ b: Block) -> JSON {
        .object([
            ("text", .string(b.text)), ("confidence", .float(b.confidence)), ("box", json(b.box)),
            ("type", enumValue(b.type.protoName, b.type.rawValue)),
            ("paragraphs", .array(b.paragraphs.map(json))),
        ])
    }

    static func json(_ p: Paragraph) -> JSON {
        .object([
            ("text", .string(p.text)), ("confidence", .float(p.confidence)), ("box", json(p.box)),
            ("lines", .array(p.lines.map(json))),
        ])
    }

    static func json(_ l: TextLine) -> JSON {
        .object([
            ("text", .string(l.text)), ("confidence", .float(l.confidence)), ("box", json(l.box)),
            ("words", .array(l.words.map(json))),
            ("baseline", .array(l.baseline.map { .int(Int($0)) })),
        ])
    }

    static func json(_ w: Word) -> JSON {
        .object([
            ("text", .string(w.text)), ("confidence", .float(w.confidence)), ("box", json(w.box)),
            ("candidates", .array(w.candidates.map { .object([("text", .string($0.text)), ("confidence", .float($0.confidence))]) })),
            ("symbols", .array(w.symbols.map {
                .object([("text", .string($0.text)), ("confidence", .float($0.confidence)), ("box", json($0.box))])
            })),
            ("fromDictionary", .bool(w.fromDictionary)),
        ])
    }

    static func json(_ box: BoundingBox?) -> JSON {
        guard let box else { return .null }
        return .object([("x", .int(Int(box.x))), ("y", .int(Int(box.y))),
                        ("width", .int(Int(box.width))), ("height", .int(Int(box.height)))])
    }

    static func json(_ s: Status) -> JSON {
        .object([
            ("code", enumValue(s.code.unrecognizedValue == nil ? s.code.name : nil, s.code.rawValue)),
            ("message", .string(s.message)),
            ("file", .string(s.file)),
            ("pageIndex", .int(Int(s.pageIndex))),
            ("details", .object(s.details.keys.sorted().map { ($0, .string(s.details[$0]!)) })),
        ])
    }

    /// Enums by name; values this build does not know as numbers (both are canonical).
    private static func enumValue(_ name: String?, _ raw: Int32) -> JSON {
        name.map(JSON.string) ?? .int(Int(raw))
    }
}

extension BlockType {
    /// The `.proto` name, e.g. `BLOCK_TYPE_TEXT`; nil for values this build does not know.
    var protoName: String? {
        switch self {
        case .unspecified: "BLOCK_TYPE_UNSPECIFIED"
        case .text: "BLOCK_TYPE_TEXT"
        case .image: "BLOCK_TYPE_IMAGE"
        case .table: "BLOCK_TYPE_TABLE"
        case .separator: "BLOCK_TYPE_SEPARATOR"
        case .other: "BLOCK_TYPE_OTHER"
        case .unrecognized: nil
        }
    }
}

extension TextSource {
    /// The `.proto` name, e.g. `TEXT_SOURCE_PDF`; nil for values this build does not know.
    var protoName: String? {
        switch self {
        case .ocr: "TEXT_SOURCE_OCR"
        case .pdf: "TEXT_SOURCE_PDF"
        case .unrecognized: nil
        }
    }
}

extension StatusCode {
    var unrecognizedValue: Int32? {
        if case .unrecognized(let value) = self { return value }
        return nil
    }
}
