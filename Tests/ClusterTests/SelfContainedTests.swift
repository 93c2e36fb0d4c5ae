import Foundation
import OCRTestSupport
import Testing

/// A clone with nothing beside it passes its tests: nothing the tests, the Makefile or the
/// scripts read lies outside the repository, and the real data they read is carried in it.
@Suite struct SelfContainedTests {
    /// Spelled in pieces so that this file does not match itself.
    static let outsidePaths = [".." + "/shared", "shared" + "/testdata", "shared" + "/schemas", "OCR_" + "SHARED_DIR"]

    @Test func noTestOrScriptReadsOutsideTheRepository() throws {
        let root = Binaries.repoRoot
        var checked = 0, offenders: [String] = []
        for top in ["Tests", "scripts", "bench", "deploy", ".ci", "Makefile", "Package.swift"] {
            let url = root.appendingPathComponent(top)
            let files: [String]
            if let walker = FileManager.default.enumerator(atPath: url.path), (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                files = walker.compactMap { ($0 as? String).map { url.appendingPathComponent($0).path } }
            } else {
                files = [url.path]
            }
            for path in files where !path.contains("/Fixtures/") {
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { continue }
                checked += 1
                for needle in Self.outsidePaths where text.contains(needle) {
                    offenders.append("\(path.dropFirst(root.path.count + 1)): \(needle)")
                }
            }
        }
        #expect(checked > 100, "the walk found the sources (\(checked) files)")
        #expect(offenders.isEmpty, "\(offenders)")
    }

    /// `make run` (and build, release, install) installs what running needs; the test stack
    /// (browser, Prometheus, validators) comes only with `make test`. Read from make's own
    /// expansion of the rules (`make -n`), not from the Makefile's text.
    @Test func runningInstallsNoTestStack() async throws {
        let run = try await runAsync(["make", "-n", "-C", Binaries.repoRoot.path, "deps"])
        let test = try await runAsync(["make", "-n", "-C", Binaries.repoRoot.path, "test-deps"])
        #expect(run.status == 0 && test.status == 0, "\(run.stderr) \(test.stderr)")
        for tool in ["chromium", "prometheus", "docker-compose", "schemathesis", "imagemagick", "protobuf-compiler"] {
            #expect(!run.stdout.contains(tool), "make deps (what make run uses) installs \(tool)")
            #expect(test.stdout.contains(tool), "make test-deps installs \(tool)")
        }
        for needed in ["libtesseract-dev", "tesseract-ocr-eng", "poppler-utils", "mupdf-tools", "libgs-common"] {
            #expect(run.stdout.contains(needed), "make deps installs \(needed)")
        }
        let install = try await runAsync(["make", "-n", "-C", Binaries.repoRoot.path, "install", "PREFIX=/opt/ocr", "DESTDIR=/tmp/staged"])
        #expect(install.stdout.contains("/tmp/staged/opt/ocr/bin/") && install.stdout.contains("ocr-worker"), "\(install.stdout.suffix(800))")
    }

    @Test(arguments: ["real/unlv-isri/phototest.tif", "real/unlv-isri/LICENSE", "real/multipage/aim916.tiff", "real/multipage/LICENSE",
                      "real/pdf/multipage.pdf", "real/pdf/REUSE.toml", "real/uw3-lines/uw3-500.tgz", "real/uw3-lines/LICENSE",
                      "real/README.md", "schemas/page-2019-07-15.xsd", "schemas/alto-4-4.xsd", "schemas/catalog.xml", "schemas/PAGE-LICENSE.txt"])
    func theRealDataAndItsLicencesAreInTheRepository(path: String) throws {
        let url = Binaries.fixtures.appendingPathComponent(path)
        let size = try #require(try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, "\(path) is missing")
        #expect(size > 100, "\(path)")
    }
}
