import Foundation
import OCRZeroMQ
import Testing

/// How a key given on the command line is read: an existing file is a file whatever its
/// length, else the value must be the Z85 key itself, else it is refused.
@Suite struct CurveKeyFileTests {
    /// A directory and a key file inside it whose path is exactly 40 Z85 characters.
    static func fortyCharacterKeyPath() throws -> (dir: URL, path: String) {
        let prefix = "/tmp/k40-"
        let name = "/s.key"
        let middle = String(UUID().uuidString.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(40 - prefix.count - name.count))
        let dir = URL(fileURLWithPath: prefix + middle)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (dir, prefix + middle + name)
    }

    @Test func aFortyCharacterPathIsReadAsTheFileItNames() throws {
        let (dir, path) = try Self.fortyCharacterKeyPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(path.count == 40)
        // The path is itself valid Z85: the case where the text used to be taken for the key.
        try #require(CurveKey(z85: path) != nil)
        let pair = try CurveKeyFile.generate(at: path)
        #expect(try CurveKeyFile.source(of: path) == .file(path))
        #expect(try CurveKeyFile.key(path) == pair.secretKey)
        #expect(try CurveKeyFile.keyPair(secretKey: path).publicKey == pair.publicKey)
        #expect(try CurveKeyFile.key(path + ".pub") == pair.publicKey)
    }

    @Test func z85TextIsTheKeyAndAnythingElseIsRefused() throws {
        let pair = try CurveKeyPair.generate()
        #expect(try CurveKeyFile.source(of: pair.publicKey.z85) == .text)
        #expect(try CurveKeyFile.key(pair.publicKey.z85) == pair.publicKey)
        for value in ["/nonexistent/key/file", "short", String(repeating: "a", count: 41)] {
            let error = #expect(throws: TransportError.self, "\(value)") { _ = try CurveKeyFile.key(value) }
            #expect(error?.message == "\(value) is neither an existing key file nor a 40-character Z85 key")
        }
        #expect(throws: TransportError.self) { _ = try CurveKeyFile.key(FileManager.default.temporaryDirectory.path) }
    }
}
