import Foundation
import OCRHTTP
import OCRTestSupport
import OCRWire
import Testing
@testable import OCRGateway

/// The HTTP face's pieces without a coordinator: a submission's three shapes into one
/// SubmitJobRequest, the tokens file, the ZIP of PAGE documents (read back by Python's zipfile).
@Suite struct GatewayPiecesTests {
    @Test func aRawBodyWithQueryOptionsIsOneFile() throws {
        let form = try SubmitForm(HTTPRequest(method: "POST", path: "/v1/jobs", query: ["filename": "../../scan.tif", "level": "fast", "dpi": "300"],
                                              headers: ["content-type": "image/tiff"], body: [1, 2, 3]))
        #expect(form.request.files.map(\.name) == ["scan.tif"], "a name is its last path component")
        #expect(form.request.files.first?.content == [1, 2, 3])
        #expect(form.request.options?.level == .fast && form.request.options?.dpi == 300)
        #expect(form.request.options?.includePdfPage == true, "kept for document?format=pdf")
    }

    @Test func multipartPartsAndJSONBodiesGiveTheSameRequest() throws {
        var multipart = HTTPRequest(method: "POST", path: "/v1/jobs", headers: ["content-type": "multipart/form-data; boundary=x"])
        multipart.formParts = [HTTPFormPart(name: "file", filename: "a.png", data: [9, 9]),
                               HTTPFormPart(name: "options", data: Array(#"{"languages": "eng+deu", "pages": "1-3", "candidates": 3}"#.utf8)),
                               HTTPFormPart(name: "job_key", data: Array("k-1".utf8))]
        let fromParts = try SubmitForm(multipart).request
        let json = #"{"files": [{"name": "a.png", "content": "CQk="}], "options": {"languages": "eng+deu", "pages": "1-3", "candidates": 3}, "job_key": "k-1"}"#
        let fromJSON = try SubmitForm(HTTPRequest(method: "POST", path: "/v1/jobs", headers: ["content-type": "application/json"],
                                                  body: Array(json.utf8))).request
        for request in [fromParts, fromJSON] {
            #expect(request.files.map(\.name) == ["a.png"] && request.files.first?.content == [9, 9])
            #expect(request.jobKey == "k-1" && request.options?.languages == "eng+deu" && request.options?.candidates == 3)
            #expect(request.options?.pageRanges.map { [$0.first, $0.last] } == [[1, 3]])
        }
    }

    @Test func badSubmissionsNameWhatIsWrong() {
        func refusal(_ request: HTTPRequest) -> OCRError? {
            #expect(throws: OCRError.self) { try SubmitForm(request) }
        }
        let unknown = refusal(HTTPRequest(method: "POST", path: "/v1/jobs", query: ["colour": "red"], body: [1]))
        #expect(unknown?.code == .invalidArgument && unknown?.details["field"] == "colour")
        let level = refusal(HTTPRequest(method: "POST", path: "/v1/jobs", query: ["level": "turbo"], body: [1]))
        #expect(level?.code == .invalidArgument && level?.message.contains("accurate, fast or best") == true, "\(String(describing: level))")
        #expect(refusal(HTTPRequest(method: "POST", path: "/v1/jobs"))?.message.hasPrefix("no file") == true)
        #expect(refusal(HTTPRequest(method: "POST", path: "/v1/jobs", headers: ["content-type": "application/json"], body: Array("[1]".utf8)))?
                    .message == "the body must be a JSON object")
    }

    @Test func theTokensFileIsCheckedLineByLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func tokens(_ text: String) throws(TokenFileError) -> BearerTokens {
            let path = directory.appendingPathComponent("t").path
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return try BearerTokens(file: path)
        }
        let good = try tokens("# who may call\nalice 0123456789abcdef0123\n\nops fedcba9876543210fedc admin\n")
        #expect(good.entries.map(\.name) == ["alice", "ops"] && good.adminPrincipals == ["http:ops"])
        #expect(good.entry(presenting: "0123456789abcdef0123")?.name == "alice" && good.entry(presenting: "0123456789abcdef") == nil)
        for (text, says) in [("alice short\n", ":1: the token of alice is shorter than 16 characters"),
                             ("a 0123456789abcdef0123\na fedcba9876543210fedc\n", ":2: a appears twice"),
                             ("a 0123456789abcdef0123 root\n", ":1: expected 'NAME TOKEN' or 'NAME TOKEN admin'"),
                             ("# nothing\n", ": no tokens")] {
            let error = #expect(throws: TokenFileError.self) { try tokens(text) }
            #expect(error?.description.hasSuffix(says) == true, "\(String(describing: error)) should end with \(says)")
        }
    }

    @Test func theZipOfPageDocumentsReadsBackInPython() throws {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let files: [(name: String, bytes: [UInt8])] = [("page-0001.xml", Array("<PcGts>one</PcGts>".utf8)), ("page-0002.xml", Array("<PcGts>two</PcGts>".utf8))]
        let zip = ZipArchive.stored(files)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID().uuidString).zip").path
        FileManager.default.createFile(atPath: path, contents: Data(zip))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try runProcess(["python3", "-c", """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print("|".join(n + "=" + z.read(n).decode() for n in z.namelist()))
            """, path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "page-0001.xml=<PcGts>one</PcGts>|page-0002.xml=<PcGts>two</PcGts>")
    }
}
