import OCRCommandLine
import Testing

/// `--coordinator` takes one endpoint, or several separated by commas (coordinators sharing a
/// journal): each must be connectable, and the message names the option and the bad part.
@Suite struct EndpointSyntaxTests {
    @Test func oneOrSeveralConnectableEndpointsAreAccepted() {
        #expect(EndpointSyntax.problem("tcp://127.0.0.1:5555", option: "--coordinator") == nil)
        #expect(EndpointSyntax.problem("tcp://a:5556,tcp://b:5556", option: "--coordinator") == nil)
        #expect(EndpointSyntax.problem("tcp://a:5556, tcp://b:5556", option: "--coordinator") == nil)
        #expect(EndpointSyntax.problem("ipc:///run/ocr.sock", option: "--coordinator") == nil)
    }

    @Test func aBadPartOfAListIsNamed() {
        #expect(EndpointSyntax.problem("tcp://a:5556,b:5556", option: "--coordinator") == "--coordinator expects tcp://HOST:PORT, e.g. tcp://127.0.0.1:5555, not 'b:5556'")
        #expect(EndpointSyntax.problem("tcp://a:5556,tcp://b", option: "--coordinator")?.contains("'tcp://b' needs a host and a port") == true)
        #expect(EndpointSyntax.problem("tcp://a:5556,,tcp://b:5556", option: "OCR_COORDINATOR")?.hasPrefix("OCR_COORDINATOR 'tcp://a:5556,,tcp://b:5556' has an empty endpoint") == true)
        #expect(EndpointSyntax.problem("tcp://a:5556,", option: "--coordinator") != nil)
    }
}
