import Foundation
import OCRTestSupport
import Testing

/// What the built executables link (DESIGN section 2: the coordinator links no OCR engine).
@Suite struct LinkageTests {
    /// The shared libraries `ldd` lists for a built executable, by file name.
    static func sharedLibraries(of executable: String) async throws -> [String] {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [Binaries.path(executable)]
        let (stdout, stderr) = try await runToCompletion(ldd)
        #expect(ldd.terminationStatus == 0, "ldd: \(String(decoding: stderr, as: UTF8.self))")
        return String(decoding: stdout, as: UTF8.self).split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test func coordinatorLinksNoOCREngine() async throws {
        let libraries = try await Self.sharedLibraries(of: "ocr-coordinator")
        // ldd really read the binary: the libraries the coordinator does use are there.
        #expect(libraries.contains { $0.hasPrefix("libzmq.so") }, "\(libraries)")
        #expect(libraries.contains { $0.hasPrefix("libsqlite3.so") }, "\(libraries)")
        let engine = libraries.filter { $0.hasPrefix("libtesseract") || $0.hasPrefix("liblept") }
        #expect(engine.isEmpty, "ocr-coordinator links \(engine)")
    }

    @Test func workerLinksTheEngine() async throws {
        let libraries = try await Self.sharedLibraries(of: "ocr-worker")
        #expect(libraries.contains { $0.hasPrefix("libtesseract") }, "\(libraries)")
    }
}
