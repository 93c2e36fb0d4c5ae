import Foundation
import OCRClient
import OCRHTTP
import OCRWire

/// `POST /v1/jobs` as a `SubmitJobRequest`. The files come as
/// - `multipart/form-data`: every part with a file name is a file, in order; a part named
///   `options` holds the options as JSON; other fields are options by name;
/// - `application/json`: `{"files": [{"name", "content" (base64)}], "options": {...}, ...}`;
/// - any other body: the one file, named by `?filename=` (default `upload`); also
///   `application/x-www-form-urlencoded`, which `curl --data-binary @scan.tiff` sends.
///
/// Options and job fields may also be query arguments (`?languages=eng&pages=1-3`). Names are
/// the `.proto` field names in snake_case or lowerCamelCase (`job_key`, `jobKey`); an unknown
/// name or a bad value is INVALID_ARGUMENT naming it.
struct SubmitForm {
    private(set) var request = SubmitJobRequest()

    init(_ http: HTTPRequest) throws(OCRError) {
        var options = RecognitionOptions()
        options.includePdfPage = true  // so that `document?format=pdf` can hold the pages as they look
        let type = http.header("Content-Type")?.lowercased() ?? ""
        var fields: [(String, Field)] = http.query.sorted { $0.key < $1.key }.map { ($0.key, .text($0.value)) }
        if type.hasPrefix("multipart/form-data") {
            guard !http.formUnreadable else { throw OCRError(.invalidArgument, "the multipart/form-data body does not parse (is its boundary right?)") }
            for part in http.formParts {
                if let filename = part.filename {
                    request.files.append(InputFile.with { $0.name = Self.fileName(filename); $0.content = part.data })
                } else if part.name == "options" {
                    fields += try Self.jsonObject(part.data, what: "the options part").map { ($0.key, .json($0.value)) }
                } else {
                    fields.append((part.name, .text(String(decoding: part.data, as: UTF8.self))))
                }
            }
        } else if type.hasPrefix("application/json") {
            let object = try Self.jsonObject(http.body, what: "the body")
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "files": request.files = try Self.files(value)
                case "options":
                    guard let nested = value as? [String: Any] else { throw OCRError(.invalidArgument, "options must be an object") }
                    fields += nested.sorted { $0.key < $1.key }.map { ($0.key, .json($0.value)) }
                default: fields.append((key, .json(value)))
                }
            }
        } else if !http.body.isEmpty {
            request.files = [InputFile.with { $0.name = Self.fileName(http.query["filename"] ?? "upload"); $0.content = http.body }]
        }
        for (name, value) in fields {
            try apply(name, value, to: &options)
        }
        guard !request.files.isEmpty else {
            throw OCRError(.invalidArgument, "no file: send the scan as the body, as multipart parts with a file name, or as JSON files")
        }
        request.options = options
    }

    /// A value from JSON or from text (query arguments and form fields).
    enum Field {
        case text(String)
        case json(Any)
    }

    private mutating func apply(_ name: String, _ value: Field, to options: inout RecognitionOptions) throws(OCRError) {
        let key = name.lowercased().replacingOccurrences(of: "_", with: "")
        let reader = FieldReader(name: name, value: value)
        switch key {
        case "filename": break  // names the raw body
        case "jobkey": request.jobKey = try reader.string()
        case "priority": request.priority = Int32(try reader.int(-1_000_000...1_000_000))
        case "timeoutms": request.timeoutMs = UInt64(try reader.int(0...(365 * 86_400_000)))
        case "maxattempts": request.maxAttempts = UInt32(try reader.int(0...100))
        case "labels": request.labels = try reader.stringMap()
        case "callbackurl":
            request.callbackUrl = try reader.string()
            if request.callbackUrl.isEmpty { throw reader.invalid("an http:// or https:// URL") }
        case "languages", "lang": options.languages = try reader.string()
        case "engine": options.engine = try reader.string()
        case "level":
            switch try reader.string().lowercased() {
            case "accurate": options.level = .accurate
            case "fast": options.level = .fast
            case "best": options.level = .best
            default: throw reader.invalid("accurate, fast or best")
            }
        case "languagecorrection": options.languageCorrection = try reader.bool()
        case "psm", "pagesegmentationmode": options.pageSegmentationMode = PageSegmentationMode(rawValue: Int32(try reader.int(0...13) + 1))
        case "dpi": options.dpi = UInt32(try reader.int(50...2400))
        case "candidates": options.candidates = UInt32(try reader.int(1...10))
        case "minimumconfidence": options.minimumConfidence = Float(try reader.double(0...1))
        case "characterwhitelist", "whitelist": options.characterWhitelist = try reader.string()
        case "minimumtextheight": options.minimumTextHeight = Float(try reader.double(0...1))
        case "detectonly": options.detectOnly = try reader.bool()
        case "reportcharacterboxes": options.reportCharacterBoxes = try reader.bool()
        case "deskew": options.deskew = try reader.bool()
        case "autorotate": options.autoRotate = try reader.bool()
        case "binarization", "binarize":
            switch try reader.string().lowercased() {
            case "otsu": options.binarization = .otsu
            case "sauvola": options.binarization = .sauvola
            case "none", "disabled": options.binarization = .disabled
            default: throw reader.invalid("otsu, sauvola or none")
            }
        case "pagetimeoutms": options.pageTimeoutMs = UInt32(try reader.int(1...86_400_000))
        case "pages", "pageranges":
            do { options.pageRanges = try Array<PageRange>(parsing: try reader.string()) } catch { throw reader.invalid("ranges like 1-3,7,10-") }
        case "customwords", "words": options.customWords = try reader.strings()
        case "pdftextlayer":
            switch try reader.string().lowercased() {
            case "report": options.pdfTextLayer = .report
            case "skip", "skip_text": options.pdfTextLayer = .skip
            case "force_ocr", "force": options.pdfTextLayer = .forceOcr
            case "redo_ocr", "redo": options.pdfTextLayer = .redoOcr
            default: throw reader.invalid("report, skip, force_ocr or redo_ocr")
            }
        case "includepdfpage": options.includePdfPage = try reader.bool()
        case "enginemode":
            switch try reader.string().lowercased() {
            case "lstm": options.engineMode = .unspecified
            case "legacy": options.engineMode = .legacy
            case "combined": options.engineMode = .combined
            default: throw reader.invalid("lstm, legacy or combined")
            }
        case "pagedetection":
            switch try reader.string().lowercased() {
            case "auto": options.pageDetection = .auto
            case "off": options.pageDetection = .off
            default: throw reader.invalid("auto or off")
            }
        default:
            throw OCRError(.invalidArgument, "unknown field '\(name)' (see /openapi.json, SubmitOptions)", details: ["field": name])
        }
    }

    /// A file name as shown in results: its last path component, without control characters.
    private static func fileName(_ raw: String) -> String {
        let base = raw.split(separator: "/").last.map(String.init) ?? raw
        let clean = String(base.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return clean.isEmpty ? "upload" : clean
    }

    private static func jsonObject(_ bytes: [UInt8], what: String) throws(OCRError) -> [String: Any] {
        do {
            guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                throw OCRError(.invalidArgument, "\(what) must be a JSON object")
            }
            return object
        } catch let error as OCRError {
            throw error
        } catch {
            throw OCRError(.invalidArgument, "\(what) is not JSON: \(error.localizedDescription)")
        }
    }

    private static func files(_ value: Any) throws(OCRError) -> [InputFile] {
        guard let list = value as? [Any] else { throw OCRError(.invalidArgument, "files must be an array of {name, content}") }
        var files: [InputFile] = []
        for (i, item) in list.enumerated() {
            guard let object = item as? [String: Any], let content = object["content"] as? String,
                  let data = Data(base64Encoded: content, options: .ignoreUnknownCharacters) else {
                throw OCRError(.invalidArgument, "files[\(i)] must be {\"name\": ..., \"content\": base64}")
            }
            files.append(InputFile.with { $0.name = fileName(object["name"] as? String ?? "file-\(i + 1)"); $0.content = Array(data) })
        }
        return files
    }
}

/// Reads one option's value with its type, or says what was wrong with it.
private struct FieldReader {
    let name: String
    let value: SubmitForm.Field

    func invalid(_ expected: String) -> OCRError {
        OCRError(.invalidArgument, "field '\(name)' must be \(expected)", details: ["field": name])
    }

    func string() throws(OCRError) -> String {
        switch value {
        case .text(let text): return text
        case .json(let any):
            guard let text = any as? String else { throw invalid("a string") }
            return text
        }
    }

    func bool() throws(OCRError) -> Bool {
        switch value {
        case .text(let text):
            switch text.lowercased() {
            case "true", "1", "yes", "": return true
            case "false", "0", "no": return false
            default: throw invalid("true or false")
            }
        case .json(let any):
            guard let number = any as? NSNumber, Self.isBoolean(number) else { throw invalid("true or false") }
            return number.boolValue
        }
    }

    func double(_ range: ClosedRange<Double>) throws(OCRError) -> Double {
        let number: Double?
        switch value {
        case .text(let text): number = Double(text)
        case .json(let any): number = (any as? NSNumber).flatMap { Self.isBoolean($0) ? nil : $0.doubleValue }
        }
        guard let number, number.isFinite, range.contains(number) else { throw invalid("a number in \(range.lowerBound)...\(range.upperBound)") }
        return number
    }

    func int(_ range: ClosedRange<Int>) throws(OCRError) -> Int {
        let number = try double(Double(range.lowerBound)...Double(range.upperBound))
        guard number == number.rounded() else { throw invalid("a whole number in \(range.lowerBound)...\(range.upperBound)") }
        return Int(number)
    }

    /// JSON's true and false, which Foundation also reads as NSNumbers (of type `c`).
    private static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    func strings() throws(OCRError) -> [String] {
        switch value {
        case .text(let text): return text.split(separator: ",").map(String.init)
        case .json(let any):
            guard let list = any as? [String] else { throw invalid("an array of strings") }
            return list
        }
    }

    func stringMap() throws(OCRError) -> [String: String] {
        guard case .json(let any) = value, let map = any as? [String: String] else { throw invalid("an object of strings") }
        return map
    }
}
