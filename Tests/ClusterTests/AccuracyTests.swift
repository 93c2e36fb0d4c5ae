import Foundation
import OCRTestSupport
import Testing

/// Accuracy cases of issue 14 end to end, on pages `scripts/accuracy/make_pages.py` renders with
/// exact word boxes, scored by `scripts/accuracy/score.py` (box-aligned word accuracy), ours
/// (`ocr-submit --local`) against the `tesseract` CLI on the same image in the same test.
@Suite(.serialized, .blocking, .enabled(if: commandExists("tesseract") && (try? runProcess(["python3", "-c", "import PIL"]).status) == 0,
                                        "needs tesseract and Pillow: run `make deps`"))
struct AccuracyTests {
    static let scripts = Binaries.repoRoot.appendingPathComponent("scripts/accuracy")
    let pages: URL

    init() throws {
        pages = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-accuracy-\(UUID().uuidString)")
        let made = try runProcess(["python3", Self.scripts.appendingPathComponent("make_pages.py").path, pages.path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    func wordAccuracy(_ page: String, _ arguments: [String] = []) async throws -> (ours: Double, cli: Double) {
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: pages.appendingPathComponent("\(page).json"))) as? [String: Any]
        let path = pages.appendingPathComponent(try #require(truth?["image"] as? String)).path
        let run = UUID().uuidString
        let ours = pages.appendingPathComponent("\(page)-\(run).ours.json"), cli = pages.appendingPathComponent("\(page)-\(run).tsv")
        let submitted = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "json", "-o", ours.path]
                                           + arguments + [path])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let tesseract = try await runAsync(["sh", "-c", "OMP_THREAD_LIMIT=1 tesseract '\(path)' - tsv > '\(cli.path)'"])
        #expect(tesseract.status == 0)
        func score(_ hypothesis: URL) async throws -> Double {
            let scored = try await runAsync(["python3", Self.scripts.appendingPathComponent("score.py").path,
                                             pages.appendingPathComponent("\(page).json").path, hypothesis.path])
            let figures = try #require(try JSONSerialization.jsonObject(with: scored.stdoutData) as? [String: Any], "\(scored.stderr)")
            return try #require(figures["word_accuracy"] as? Double)
        }
        return (try await score(ours), try await score(cli))
    }

    /// A 300-dpi ruled table tagged 72 dpi: the tag makes the page 35 inches wide, so it is not
    /// believed (Tesseract believes it and loses the table's columns to its rules).
    @Test func aLyingResolutionTagDoesNotCostTheTable() async throws {
        let (ours, cli) = try await wordAccuracy("ruled-table-72dpi")
        #expect(ours >= 0.95, "ours \(ours)")
        #expect(cli < 0.7, "the CLI trusts the tag: \(cli)")
        let overridden = try await wordAccuracy("ruled-table-72dpi", ["--dpi", "300"])
        #expect(overridden.ours >= 0.95, "--dpi overrides the tag: \(overridden.ours)")
    }

    /// `--level fast` keeps the inverted-text retry: a white-on-black banner keeps its words.
    @Test func fastKeepsInvertedBanners() async throws {
        let fast = try await wordAccuracy("banners", ["--level", "fast"])
        let accurate = try await wordAccuracy("banners")
        #expect(fast.ours >= accurate.ours - 0.02, "fast \(fast.ours), accurate \(accurate.ours)")
        #expect(fast.ours >= fast.cli - 0.01, "fast \(fast.ours) against the CLI \(fast.cli)")
    }

    /// `--level best` recovers what one pass loses on degraded pages (faded text under uneven
    /// light: the background-normalised pass; a receipt's price column that layout analysis
    /// drops: the single-block pass), and on a clean page, where it is sure, it reads exactly
    /// what `accurate` reads.
    @Test func bestRecoversDegradedPagesAndLeavesCleanOnesAlone() async throws {
        let faded = try await wordAccuracy("faded", ["--level", "best"])
        let fadedAccurate = try await wordAccuracy("faded")
        #expect(faded.ours >= 0.9, "best \(faded.ours)")
        #expect(faded.ours >= fadedAccurate.ours + 0.2, "best \(faded.ours), accurate \(fadedAccurate.ours)")
        let receipt = try await wordAccuracy("receipt", ["--level", "best"])
        #expect(receipt.ours >= receipt.cli + 0.2, "best \(receipt.ours), the CLI \(receipt.cli)")
        let clean = try await wordAccuracy("two-columns", ["--level", "best"])
        #expect(clean.ours >= clean.cli, "best \(clean.ours), the CLI \(clean.cli)")
    }

    /// An upright table of the digits 0 1 6 8 9, which Tesseract's OSD wants upside down (OSD
    /// alone, `--psm 0`, reports the 180-degree turn): `--auto-rotate` does not take the turn,
    /// since the turned page does not read better, and loses no word to it.
    @Test func autoRotateRefusesOSDsWrongTurnOfAnUprightTable() async throws {
        let image = pages.appendingPathComponent("numeric-table.png").path
        func rotation(_ arguments: [String]) async throws -> Int {
            let run = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "1", "--quiet", "--format", "json"] + arguments + [image])
            #expect(run.status == 0, "\(run.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
            let pages = try #require(document["pages"] as? [[String: Any]])
            let result = try #require(pages.first?["result"] as? [String: Any])
            return (result["rotationDegrees"] as? Int) ?? 0
        }
        #expect(try await rotation(["--psm", "0"]) == 180, "OSD no longer proposes the wrong turn: this test tests nothing")
        #expect(try await rotation(["--auto-rotate"]) == 0)
        let turned = try await wordAccuracy("numeric-table", ["--auto-rotate"])
        let plain = try await wordAccuracy("numeric-table")
        #expect(turned.ours == plain.ours, "auto-rotate \(turned.ours), without \(plain.ours)")
        #expect(plain.ours >= 0.9, "\(plain.ours)")
    }
}
