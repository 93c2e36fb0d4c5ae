import Foundation
import OCRTestSupport
import Testing

/// `ocr-submit` as a user types it: standard input and output, an output path that cannot be
/// created (refused before anything is submitted), unreadable inputs named with the system's
/// reason.
@Suite(.serialized) struct SubmitCommandLineTests {
    let sample = Binaries.fixtures.appendingPathComponent("multipage.tif").path
    var submitPath: String { Binaries.buildDirectory.appendingPathComponent("ocr-submit").path }

    @Test func anOutputThatCannotBeCreatedIsRefusedBeforeSubmitting() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "null")
        for output in ["/nonexistent-dir/out.txt", FileManager.default.temporaryDirectory.path] {
            let refused = try await cluster.submit(["--quiet", "-o", output, sample])
            #expect(refused.status == 73, "EX_CANTCREAT; stderr: \(refused.stderr)")
            #expect(refused.stderr.contains("cannot create \(output)"), "\(refused.stderr)")
        }
        let jobs = try await cluster.submit(["jobs"])
        #expect(jobs.status == 0)
        #expect(jobs.stdout == "no jobs\n", "nothing was submitted: \(jobs.stdout)")
        await cluster.stop()
    }

    /// `-o` replaces a regular file atomically, but never renames over what is not one: a FIFO
    /// (as `/dev/null` or a terminal) is written in place, and a symbolic link keeps pointing at
    /// its target, which gets the document. (Renaming onto `-o /dev/null` once replaced the
    /// device with a regular file.)
    @Test func anOutputThatIsNotARegularFileIsWrittenInPlace() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-outputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let target = dir.appendingPathComponent("target.txt").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = dir.appendingPathComponent("link.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.txt")
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "tesseract")
        async let read = runAsync(["timeout", "-s", "KILL", "60", "cat", fifo])  // never hangs the suite
        let viaFIFO = try await cluster.submit(["--quiet", "-o", fifo, sample])
        #expect(viaFIFO.status == 0, "stderr: \(viaFIFO.stderr)")
        #expect(try await read.stdout.contains("quick brown fox"))
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        let viaLink = try await cluster.submit(["--quiet", "-o", link, sample])
        #expect(viaLink.status == 0, "stderr: \(viaLink.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.txt", "still a link")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("quick brown fox"))
        await cluster.stop()
    }

    /// A PDF is not written to a terminal (util-linux `script` gives the command one).
    @Test func aPDFIsNotWrittenToATerminal() async throws {
        let tty = try await runAsync(["script", "-qec", "'\(submitPath)' --local --workers 1 -f pdf '\(sample)'", "/dev/null"])
        #expect(tty.status == 64, "EX_USAGE: \(tty.stdout) \(tty.stderr)")
        #expect(tty.stdout.contains("a PDF is not for a terminal"), "\(tty.stdout)")
    }

    @Test func dashReadsStandardInputAndWritesStandardOutput() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "tesseract")
        let piped = try await runAsync(["sh", "-c", "\"$0\" --coordinator \"$1\" --quiet -f json -o - - < \"$2\"",
                                        submitPath, cluster.clientEndpoint, sample])
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: piped.stdoutData) as? [String: Any])
        let pages = try #require(document["pages"] as? [[String: Any]])
        #expect(pages.count == 3)
        #expect(piped.stdout.contains("quick brown fox"))
        #expect(piped.stdout.contains("\"stdin\""), "the piped file is named stdin")
        let twice = try await cluster.submit(["-", "-"])
        #expect(twice.status == 64, "stdin can be read once: \(twice.stderr)")
        await cluster.stop()
    }

    @Test func anUnreadableInputIsNamedWithTheSystemsReasonAndExits66() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let loop = dir.appendingPathComponent("loop.tif").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "null")
        let looped = try await cluster.submit(["--quiet", loop])
        #expect(looped.status == 66, "EX_NOINPUT; stderr: \(looped.stderr)")
        #expect(looped.stderr.contains("loop.tif") && looped.stderr.contains("Too many levels of symbolic links"), "\(looped.stderr)")
        #expect(!looped.stderr.contains("NSCocoaErrorDomain"))
        let missing = try await cluster.submit(["--quiet", dir.appendingPathComponent("missing.tif").path])
        #expect(missing.status == 66 && missing.stderr.contains("no such file or directory"), "\(missing.stderr)")
        // Not a scan at all: refused before submitting, as an input that cannot be read.
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("meeting notes, not a scan\n".utf8).write(to: notes)
        let text = try await cluster.submit(["--quiet", notes.path])
        #expect(text.status == 66, "EX_NOINPUT; stderr: \(text.stderr)")
        #expect(text.stderr.contains("notes.txt is not an image or a PDF"), "\(text.stderr)")
        await cluster.stop()
    }

    /// Tesseract's own chatter ("Detected 329 diacritics", "Estimating resolution") never
    /// reaches the terminal: `-q` leaves stderr empty with the embedded cluster, and a worker's
    /// stderr is its key=value log and nothing else.
    @Test func quietMeansQuietAndWorkerLogsAreOurs() async throws {
        let noisy = [Binaries.fixtures.appendingPathComponent("noise.png").path,
                     Binaries.realTestdata.appendingPathComponent("multipage/testpage.png").path]
        let plain = try await runAsync(["tesseract", noisy[0], "-"])
        #expect(plain.stderr.contains("diacritics"), "the plain tool does print on this page: \(plain.stderr)")
        let quiet = try await runAsync([Binaries.path("ocr-submit"), "-q"] + noisy)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "stderr under -q: \(quiet.stderr)")
        let cluster = try await TestCluster()
        let worker = try await cluster.addWorker(slots: 1, engine: "tesseract")
        #expect(try await cluster.submit(["--quiet"] + noisy).status == 0)
        await cluster.stop()
        let stray = worker.stderr.split(separator: "\n").filter { !$0.hasPrefix("ts=") }
        #expect(stray.isEmpty && worker.stderr.contains("msg="), "lines in the worker's log that are not ours: \(stray)")
    }

    /// Ctrl-C on a TTY (a real pseudo-terminal, util-linux's `script`): the job is cancelled,
    /// the cancel's sentence is the last thing on the terminal (no bar drawn after it, no
    /// Tesseract LEAK warnings), and the bar showed the job from the start.
    @Test func ctrlCOnATerminalCancelsAndSaysSoLast() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("tty.log"), marker = dir.appendingPathComponent("out.txt").path
        let scan = Binaries.realTestdata.appendingPathComponent("multipage/aim916.tiff").path
        let session = try ExternalProcess(["script", "-qfec", "\(Binaries.path("ocr-submit")) -o \(marker) \(scan)", log.path])
        var text = ""
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, !text.contains("1/28 pages") {
            try await Task.sleep(for: .milliseconds(200))
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        #expect(text.contains("accepted: 28 pages") && text.contains("0/28 pages, queued"), "the bar at once: \(text)")
        // Ctrl-C goes to ocr-submit itself (not to `script` or its shell, whose command lines
        // name it too).
        let signalled = try await runAsync(["pkill", "-INT", "-f", "^\(Binaries.path("ocr-submit")) -o \(marker)"])
        #expect(signalled.status == 0, "pkill found ocr-submit")
        let end = ContinuousClock.now + .seconds(30)
        while session.process.isRunning, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(100)) }
        text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let shown = text.replacingOccurrences(of: "\u{1B}[2K", with: "").split(whereSeparator: { $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("Script ") }
        #expect(shown.last?.hasPrefix("ocr-submit: interrupted: job ") == true && shown.last?.contains("cancelled") == true, "\(shown.suffix(4))")
        #expect(!text.contains("LEAK"), "\(text)")
    }

    /// Several documents from one recognition, as `tesseract in out pdf txt` and OCRmyPDF's
    /// --sidecar: `-f pdf,txt,page -o BASE` writes BASE.pdf, BASE.txt and BASE-0001.xml...; the
    /// text is the PDF's text; one job was submitted per run.
    @Test func severalFormatsFromOneRecognition() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "tesseract")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-multi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("scan").path
        let run = try await cluster.submit(["--quiet", "-f", "pdf,txt,page", "-o", base, Binaries.fixtures.appendingPathComponent("multipage.tif").path])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["scan-0001.xml", "scan-0002.xml", "scan-0003.xml", "scan.pdf", "scan.txt"], "\(names)")
        let text = try String(contentsOfFile: base + ".txt", encoding: .utf8)
        let pdfText = try runProcess(["pdftotext", base + ".pdf", "-"]).stdout
        #expect(text.contains("quick brown fox") && Self.words(text) == Self.words(pdfText), "\(text) vs \(pdfText)")
        let sidecar = dir.appendingPathComponent("side.txt").path
        let withSidecar = try await cluster.submit(["--quiet", "-f", "pdf", "-o", dir.appendingPathComponent("one.pdf").path, "--sidecar", sidecar,
                                                    Binaries.fixtures.appendingPathComponent("text.png").path])
        #expect(withSidecar.status == 0, "\(withSidecar.stderr)")
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8).contains("quick brown fox"))
        #expect(cluster.coordinator.stderr.matches(of: /msg="job accepted"/).count == 2, "one job per run")
        let noBase = try await cluster.submit(["-f", "pdf,txt", Binaries.fixtures.appendingPathComponent("text.png").path])
        #expect(noBase.status == 64 && noBase.stderr.contains("several formats need -o BASE"), "\(noBase.stderr)")
        await cluster.stop()
    }

    /// A coordinator endpoint that is not one is a usage error (64) with a sentence, for
    /// ocr-submit (option or OCR_COORDINATOR) and ocr-worker; not a transport error (70).
    @Test func aMalformedCoordinatorEndpointIsAUsageError() async throws {
        let sample = Binaries.fixtures.appendingPathComponent("text.png").path
        for (tool, arguments, environment) in [("ocr-submit", ["--coordinator", "bogus", sample], [String: String]()),
                                               ("ocr-submit", ["--coordinator", "tcp://localhost", sample], [:]),
                                               ("ocr-submit", [sample], ["OCR_COORDINATOR": "localhost:5555"]),
                                               ("ocr-worker", ["--coordinator", "bogus"], [:])] {
            let run = try await runAsync([Binaries.path(tool)] + arguments, environment: environment)
            #expect(run.status == 64, "\(tool) \(arguments) \(environment): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("\(tool): ") && run.stderr.contains("tcp://HOST:PORT") && !run.stderr.contains("TransportError"),
                    "\(run.stderr)")
        }
    }

    @Test func pageXMLIsOneFilePerPage() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-pagexml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "tesseract")
        let out = dir.appendingPathComponent("scan.xml").path
        let result = try await cluster.submit(["--quiet", "-f", "page", "-o", out, sample])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["scan-0001.xml", "scan-0002.xml", "scan-0003.xml"])
        let first = try String(contentsOfFile: dir.appendingPathComponent("scan-0001.xml").path, encoding: .utf8)
        #expect(first.contains("<Unicode>The quick brown fox jumps over the lazy dog.</Unicode>"), "\(first.prefix(2000))")
        // Schema validity of the renderer's output: PAGETests.
        #expect(first.contains("<PcGts xmlns=\"http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15\""))
        await cluster.stop()
    }

    static let priorOCR = Binaries.realTestdata.appendingPathComponent("pdf/multipage.pdf").path

    /// Page 4 of the real multipage.pdf was OCRed before (an invisible GlyphLessFont text
    /// layer); page 3 is a plain image. Decided per page.
    @Test
    func aPageWithPriorOCRIsReportedSkippedOrForcedPerPage() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "tesseract")
        let reported = try await cluster.submit(["--quiet", "--pages", "3-4", Self.priorOCR])
        #expect(reported.status == 2, "the other page is still recognised: stderr \(reported.stderr)")
        #expect(reported.stderr.contains("page 4") && reported.stderr.contains("already has a text layer"), "\(reported.stderr)")
        let skipped = try await cluster.submit(["--quiet", "--skip-text", "-f", "json", "--pages", "3-4", Self.priorOCR])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("\"textSource\": \"TEXT_SOURCE_PDF\"") || skipped.stdout.contains("\"textSource\":\"TEXT_SOURCE_PDF\""),
                "page 4 is marked as the PDF's own text: \(skipped.stdout.prefix(600))")
        let forced = try await cluster.submit(["--quiet", "--force-ocr", "--pages", "3-4", Self.priorOCR])
        #expect(forced.status == 0, "\(forced.stderr)")
        let both = try await cluster.submit(["--skip-text", "--force-ocr", Self.priorOCR])
        #expect(both.status == 64)
        await cluster.stop()
    }

    /// Words of page `page` of `pdf` (pdftotext -bbox) that another word with the same text
    /// overlaps: a text layer stacked on another.
    static func stackedWords(_ pdf: String, page: Int) throws -> (words: Int, stacked: [String]) {
        let html = try runProcess(["pdftotext", "-bbox", "-f", "\(page)", "-l", "\(page)", pdf, "-"]).stdout
        let words = html.matches(of: /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/).map {
            (text: String($0.5), x0: Double($0.1)!, y0: Double($0.2)!, x1: Double($0.3)!, y1: Double($0.4)!)
        }
        var stacked: [String] = []
        for (i, a) in words.enumerated() {
            for b in words[(i + 1)...] where a.text == b.text {
                let w = max(0, min(a.x1, b.x1) - max(a.x0, b.x0)), h = max(0, min(a.y1, b.y1) - max(a.y0, b.y0))
                if w * h > 0.5 * min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0)) { stacked.append(a.text) }
            }
        }
        return (words.count, stacked)
    }

    /// A PDF that was OCRed before (our own searchable PDF: an invisible text layer under each
    /// page), OCRed again with --force-ocr: as OCRmyPDF's --force-ocr, each page becomes the image
    /// it was recognised from with our text layer only, so each word is found once.
    @Test
    func forceOCRReplacesTheOldTextLayerInsteadOfStackingASecond() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "tesseract")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-force-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.pdf").path, forced = dir.appendingPathComponent("forced.pdf").path
        let made = try await cluster.submit(["--quiet", "-f", "pdf", "-o", first, Binaries.fixtures.appendingPathComponent("multipage.tif").path])
        #expect(made.status == 0, "\(made.stderr)")
        let again = try await cluster.submit(["--quiet", "--force-ocr", "-f", "pdf", "-o", forced, first])
        #expect(again.status == 0, "\(again.stderr)")
        for page in 1...3 {
            let (count, stacked) = try Self.stackedWords(forced, page: page)
            #expect(count >= 5 && stacked.isEmpty, "page \(page): \(count) words, found twice: \(stacked)")
            #expect(try runProcess(["pdftotext", "-f", "\(page)", "-l", "\(page)", forced, "-"]).stdout.split(whereSeparator: \.isWhitespace)
                    == runProcess(["pdftotext", "-f", "\(page)", "-l", "\(page)", first, "-"]).stdout.split(whereSeparator: \.isWhitespace))
        }
        let images = try runProcess(["pdfimages", "-list", forced]).stdout.split(separator: "\n").dropFirst(2)
        #expect(images.count == 3, "each page is its image: \(images)")
        let fonts = try runProcess(["pdffonts", forced]).stdout.split(separator: "\n").dropFirst(2)
        #expect(fonts.count == 1 && fonts.first?.hasPrefix("GlyphLessFont") == true, "our text layer only: \(fonts)")
        await cluster.stop()
    }

    /// --redo-ocr, as OCRmyPDF's: a page with visible text, a scanned image and an earlier OCR
    /// layer (invisible text over the image) keeps its visible text and its image as they were;
    /// the old layer is replaced by ours, so each word is found once. Our own searchable PDF
    /// redone keeps its scans and has each word once.
    @Test
    func redoOCRReplacesAnEarlierLayerAndKeepsVisibleContent() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "tesseract")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-redo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mixed = dir.appendingPathComponent("mixed.pdf").path, redone = dir.appendingPathComponent("redone.pdf").path
        let made = try runProcess(["python3", Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/mixed_pdf.py").path,
                                   Binaries.fixtures.appendingPathComponent("text.png").path, mixed])
        #expect(made.status == 0, "\(made.stderr)")
        let before = Self.words(try runProcess(["pdftotext", mixed, "-"]).stdout)
        #expect(before == ["Visible", "heading", "words", "The", "quick", "brown", "fox", "jumps"], "\(before)")
        let reported = try await cluster.submit(["--quiet", mixed])
        #expect(reported.status == 3 && reported.stderr.contains("--redo-ocr replaces an earlier OCR layer"), "\(reported.stderr)")
        let run = try await cluster.submit(["--quiet", "--redo-ocr", "-f", "pdf", "-o", redone, mixed])
        #expect(run.status == 0, "\(run.stderr)")
        let after = Self.words(try runProcess(["pdftotext", redone, "-"]).stdout)
        #expect(Array(after.prefix(3)) == ["Visible", "heading", "words"], "the visible text is kept: \(after)")
        #expect(after.filter { $0 == "Visible" }.count == 1 && after.filter { $0 == "fox" }.count == 1, "each word once: \(after)")
        #expect(after.contains("zebras") && after.contains("liquor"), "the image is read: \(after)")
        #expect(try Self.stackedWords(redone, page: 1).stacked.isEmpty)
        let images = try runProcess(["pdfimages", "-list", redone]).stdout.split(separator: "\n").dropFirst(2)
        #expect(images.count == 1 && images.first?.contains(" 1049   357 ") == true, "the scan kept as it was, not rasterised: \(images)")

        let first = dir.appendingPathComponent("first.pdf").path, again = dir.appendingPathComponent("again.pdf").path
        #expect(try await cluster.submit(["--quiet", "-f", "pdf", "-o", first, Binaries.fixtures.appendingPathComponent("multipage.tif").path]).status == 0)
        #expect(try await cluster.submit(["--quiet", "--redo-ocr", "-f", "pdf", "-o", again, first]).status == 0)
        for page in 1...3 {
            let (count, stacked) = try Self.stackedWords(again, page: page)
            #expect(count >= 5 && stacked.isEmpty, "page \(page): \(count) words, found twice: \(stacked)")
        }
        let kept = try runProcess(["pdfimages", "-list", again]).stdout.split(separator: "\n").dropFirst(2)
        #expect(kept.count == 3 && kept.allSatisfy { $0.contains("ccitt") }, "the G4 scans as they were: \(kept)")
        let both = try await cluster.submit(["--force-ocr", "--redo-ocr", first])
        #expect(both.status == 64 && both.stderr.contains("--force-ocr and --redo-ocr exclude each other"), "\(both.stderr)")
        await cluster.stop()
    }

    static func words(_ text: String) -> [String] { text.split(whereSeparator: \.isWhitespace).map(String.init) }
}
