import Foundation
import OCRClient
import Testing

/// The client refuses options the coordinator would refuse, before it sends anything: here no
/// coordinator is listening at all, and the answer still comes at once, naming the field.
@Suite struct SubmitOptionsTests {
    @Test func badOptionsAreRefusedBeforeAnythingIsSent() async throws {
        let client = try OCRClient(endpoint: "tcp://127.0.0.1:9")  // The discard port: nothing answers.
        defer { client.close() }
        var options = RecognitionOptions()
        options.level = .unrecognized(7)
        let file = InputFile.with { $0.name = "x.png"; $0.content = [1, 2, 3] }
        let error = await #expect(throws: OCRError.self) { _ = try await client.submit(inputs: [file], options: options) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.details["field"] == "level")
        options = RecognitionOptions()
        options.minimumTextHeight = 2
        let height = await #expect(throws: OCRError.self) { _ = try await client.submit(inputs: [file], options: options) }
        #expect(height?.details["field"] == "minimum_text_height")
    }
}

/// What a program shows of an error it did not expect: Foundation's description.
@Suite struct OCRErrorDescriptionTests {
    @Test func localizedDescriptionNamesTheCodeFileAndPage() {
        let error: any Error = OCRError(.invalidArgument, "cannot decode", file: "scan.tif", page: 2)
        #expect(error.localizedDescription == "INVALID_ARGUMENT: file=scan.tif page=3 cannot decode")
    }
}
