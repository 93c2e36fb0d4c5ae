import Testing
import OCRCommandLine
import OCRLog

@Suite struct ArgumentsTests {
    let spec = CommandSpec(
        name: "ocr-worker", summary: "test", usage: "ocr-worker [options]",
        options: [
            .option("--coordinator", value: "ENDPOINT", default: "tcp://127.0.0.1:5556", help: "where"),
            .option("--slots", short: "-s", value: "N", help: "slots"),
            .option("--lang", value: "L", help: "repeatable"),
            .flag("--quiet", short: "-q", help: "quiet"),
        ])

    @Test func longShortInlineAndPositionals() throws {
        let p = try spec.parse(["--slots", "4", "--coordinator=tcp://h:1", "-q", "a.tif", "--lang", "eng", "--lang=deu", "--", "--not-an-option"])
        #expect(try p.int("--slots") == 4)
        #expect(p.string("--coordinator") == "tcp://h:1")
        #expect(p.flag("--quiet"))
        #expect(p.strings("--lang") == ["eng", "deu"])
        #expect(p.positionals == ["a.tif", "--not-an-option"])
        #expect(try spec.parse(["-s", "2"]).int("--slots") == 2)
    }

    @Test func defaultsApplyWhenAbsent() throws {
        let p = try spec.parse([])
        #expect(p.string("--coordinator") == "tcp://127.0.0.1:5556")
        #expect(try p.int("--slots") == nil)
        #expect(!p.wantsHelp)
        #expect(try spec.parse(["-h"]).wantsHelp)
    }

    @Test func mistakesAreUsageErrorsNamingTheOption() {
        #expect(throws: UsageError("unknown option '--slot'", command: "ocr-worker")) { try spec.parse(["--slot", "3"]) }
        #expect(throws: UsageError("--slots needs a value (N)", command: "ocr-worker")) { try spec.parse(["--slots"]) }
        #expect(throws: UsageError("--quiet takes no value", command: "ocr-worker")) { try spec.parse(["--quiet=yes"]) }
        #expect(throws: UsageError("--slots expects a whole number, got 'many'", command: "ocr-worker")) { try spec.parse(["--slots", "many"]).int("--slots") }
        #expect(throws: UsageError("--slots must be in 1...64, got 0", command: "ocr-worker")) { try spec.parse(["--slots", "0"]).int("--slots", range: 1...64) }
    }

    @Test func helpListsEveryOptionWithDefaults() {
        let help = spec.helpText
        for o in spec.options { #expect(help.contains(o.name)) }
        #expect(help.contains("(default: tcp://127.0.0.1:5556)"))
        #expect(help.contains("Usage: ocr-worker [options]"))
    }

    @Test func progressBarText() {
        #expect(ProgressBar.render(done: 5, failed: 0, total: 10, elapsed: .seconds(2), width: 10)
                == "[#####.....] 5/10 pages  2.50 pages/s  ETA 2s")
        #expect(ProgressBar.render(done: 9, failed: 1, total: 10, elapsed: .seconds(5), width: 10)
                == "[##########] 10/10 pages (1 failed)  2.00 pages/s")
    }

    @Test func loggerWritesQuotedKeyValueLinesAtOrAboveItsLevel() {
        let sink = InMemoryLogSink()
        let log = Logger(component: "worker", level: .info, sink: sink)
        log.debug("hidden")
        log.info("page done", ["page": 3, "file": "my scan.tif"])
        #expect(sink.lines.count == 1)
        let line = sink.lines[0]
        #expect(line.contains(" level=info component=worker msg=\"page done\" page=3 file=\"my scan.tif\""))
        #expect(line.hasPrefix("ts=20"))
    }

    @Test func controlCharactersInNamesCannotForgeLinesOrDriveTheTerminal() {
        #expect(PrintableText.escaped("scan é.tif") == "scan é.tif")
        #expect(PrintableText.escaped("a\nb\r\tc\u{1B}[2J\u{7F}\u{85}") == "a\\nb\\r\\tc\\u{1B}[2J\\u{7F}\\u{85}")
        let sink = InMemoryLogSink()
        let log = Logger(component: "submit", level: .info, sink: sink)
        log.warning("bad file", ["file": "x\nts=forged level=error\u{1B}]0;owned\u{7}"])
        #expect(sink.lines.count == 1)
        #expect(sink.lines[0].hasSuffix(" file=\"x\\nts=forged level=error\\u{1B}]0;owned\\u{7}\""), "\(sink.lines[0])")
    }
}
