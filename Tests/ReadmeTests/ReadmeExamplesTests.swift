import Foundation
import OCRClient
import Testing

// The README's Swift examples, compiled here with `import OCRClient` as this target's only
// ocr-cluster import (the target depends on OCRClient alone), exactly as a user would write them.
// They are not run (they need a coordinator on HOST); `readmeBlocksAreHereVerbatim` keeps the
// two copies the same.

func readmeClientExample() async throws {
    let client = try OCRClient(endpoint: "tcp://HOST:5555")
    var options = RecognitionOptions()
    options.languages = "eng"
    options.candidates = 3
    options.includePdfPage = true                                 // the workers send back what a searchable PDF needs
    do {
        let job = try await client.submit(files: [URL(fileURLWithPath: "scan.tiff")], options: options)
        for try await event in client.events(for: job) {         // PageCompleted, PageFailed, JobProgress, JobFinished
            if let page = event.pageCompleted?.result { print("page \(page.pageIndex + 1): \(page.text.count) characters") }
        }
        let document = try await client.document(for: job)       // pages in order, failures as gaps
        print(try DocumentFormat.alto.render(document))
        let (pdf, problems) = try document.searchablePDF()       // the scan with its text layer
        try pdf.write(to: URL(fileURLWithPath: "scan.pdf"))
        problems.forEach { print($0) }                            // failed pages, named
    } catch let error as OCRError {                               // a gRPC code, the file and the page
        print(error.code.name, error.file ?? "-", error.pageIndex.map { $0 + 1 } ?? 0, error.message)
    }
}

func readmeVisionExample(client: OCRClient) async throws {
    var request = RecognizeTextRequest()                  // Vision: RecognizeTextRequest / VNRecognizeTextRequest
    request.recognitionLevel = .fast
    request.recognitionLanguages = ["en-US", "de-DE"]      // -> eng+deu
    request.regionOfInterest = NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5)   // top half
    let pages = try await client.perform(request, on: [URL(fileURLWithPath: "scan.tiff")])  // [[RecognizedTextObservation]]
    let boxes = try await client.perform(DetectTextRectanglesRequest(reportCharacterBoxes: true), on: [URL(fileURLWithPath: "scan.tiff")])
    let documents = try await client.perform(RecognizeDocumentsRequest(), on: [URL(fileURLWithPath: "report.pdf")])  // Vision (26): RecognizeDocumentsRequest
    for table in documents[0].document.tables {                 // also .title, .paragraphs, .lists, .text.detectedData
        for row in table.rows { print(row.map { $0.content?.transcript ?? "" }.joined(separator: " | ")) }
    }
    _ = (pages, boxes)
}

@Suite struct ReadmeExamplesTests {
    static let here = URL(fileURLWithPath: #filePath)
    static let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The documents whose Swift examples must compile: the README and the usage guide.
    static let documents = ["README.md", "docs/usage.md"]

    /// The ```swift blocks of the documents, each as its lines without leading or trailing spaces.
    static func readmeBlocks() throws -> [[String]] {
        var blocks: [[String]] = []
        for document in documents {
            blocks += try swiftBlocks(try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8))
        }
        return blocks
    }

    static func swiftBlocks(_ text: String) throws -> [[String]] {
        var blocks: [[String]] = [], current: [String]? = nil
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") { current = []; continue }
            if current != nil, line.hasPrefix("```") { blocks.append(current!); current = nil; continue }
            current?.append(line.trimmingCharacters(in: .whitespaces))
        }
        return blocks
    }

    @Test func readmeBlocksAreHereVerbatim() throws {
        let blocks = try Self.readmeBlocks()
        try #require(blocks.count >= 3, "README.md and docs/usage.md have \(blocks.count) swift blocks")
        let source = try String(contentsOf: Self.here, encoding: .utf8)
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let imports = Set(source.filter { $0.hasPrefix("import ") })
        for (n, block) in blocks.enumerated() {
            // Imports: each one the README shows is this file's; this file imports no other
            // ocr-cluster module than OCRClient.
            for line in block where line.hasPrefix("import ") {
                let module = line.split(separator: " ")[1]
                #expect(imports.contains("import \(module)"), "README block \(n + 1) imports \(module), this file does not")
            }
            let body = block.filter { !$0.hasPrefix("import ") && !$0.isEmpty }
            let found = source.indices.contains { start in
                start + body.count <= source.count && Array(source[start..<start + body.count]) == body
            }
            #expect(found, "README block \(n + 1) is not in ReadmeExamplesTests.swift as it is in README.md:\n\(body.joined(separator: "\n"))")
        }
        #expect(imports == ["import Foundation", "import OCRClient", "import Testing"], "\(imports)")
    }
}
