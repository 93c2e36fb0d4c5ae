import Foundation
import OCRTestSupport
import OCRWire
import Testing
@testable import OCRClient

/// The JSON renderer claims protobuf's canonical JSON mapping for `PageResult` and `Status`:
/// Python's `google.protobuf.json_format` (PyPI `protobuf`, code from `protoc --python_out`)
/// parses every page strictly, and the binary it re-encodes decodes in Swift to the same page.
@Suite(.blocking) struct ProtobufJSONTests {
    @Test func pythonProtobufParsesEveryPageBackToTheSameMessage() throws {
        try #require(commandExists("protoc") && (try? runProcess(["python3", "-c", "import google.protobuf"]).status) == 0,
                     "protoc and Python's protobuf are needed (make deps installs them)")
        let dir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let proto = Paths.repository.appendingPathComponent("proto")
        let protoc = try runProcess(["protoc", "-I", proto.path, "--python_out=\(dir.path)",
                                              proto.appendingPathComponent("ocr/v1/page.proto").path,
                                              proto.appendingPathComponent("ocr/v1/status.proto").path])
        #expect(protoc.status == 0, "\(protoc.stderr)")

        var page0 = Fixtures.page(0, setText: true)
        page0.skewDegrees = -1.25
        page0.rotationDegrees = 90
        let document = Document(results: [Fixtures.page(2), page0], failures: [Fixtures.failure(1, .internal, "crash \"x\"")])
        let json = dir.appendingPathComponent("doc.json")
        try DocumentFormat.json.renderData(document).write(to: json)
        let script = """
        import json, sys
        sys.path.insert(0, sys.argv[1])
        from ocr.v1 import page_pb2, status_pb2
        from google.protobuf import json_format
        doc = json.load(open(sys.argv[2], encoding='utf-8'))
        for page in doc['pages']:
            if page['state'] == 'OK':
                m = json_format.ParseDict(page['result'], page_pb2.PageResult())
            else:
                m = json_format.ParseDict(page['status'], status_pb2.Status())
            print(page['state'], m.SerializeToString().hex())
        """
        let result = try runProcess(["python3", "-c", script, dir.path, json.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(lines.map(\.first) == ["OK", "FAILED", "OK"] && lines.allSatisfy { $0.count == 2 }, "\(result.stdout)")
        #expect(try PageResult(serializedBytes: hex(lines[0][1])) == page0)
        #expect(try PageResult(serializedBytes: hex(lines[2][1])) == Fixtures.page(2))
        let status = try Status(serializedBytes: hex(lines[1][1]))
        #expect(status.code == .internal)
        #expect(status.message == "crash \"x\"")
        #expect(status.pageIndex == 1)
    }

    private func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
