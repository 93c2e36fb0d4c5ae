import OCRLog
import Testing

/// One log line per event, `key=value`, machine-parsable whatever the values hold: a file name
/// with a newline or an escape sequence cannot forge a line or drive a terminal.
@Suite struct LoggerTests {
    @Test func linesAreKeyValueAndFilteredByLevel() throws {
        let sink = InMemoryLogSink()
        let logger = Logger(component: "worker", level: .info, sink: sink)
        logger.debug("not written")
        logger.info("page done", ["file": "a b.tif", "page": 3, "empty": ""])
        logger.named("link").warning("lost")
        #expect(sink.lines.count == 2)
        let line = try #require(sink.lines.first)
        #expect(line.hasPrefix("ts="))
        #expect(line.contains(#" level=info component=worker msg="page done" file="a b.tif" page=3 empty="""#), "\(line)")
        #expect(sink.lines[1].contains("component=link") && sink.lines[1].contains("level=warning"))
    }

    @Test func hostileValuesStayOnOneLine() throws {
        let sink = InMemoryLogSink()
        Logger(component: "c", sink: sink).error("bad \"file\"", ["name": "x\nlevel=error forged\u{1B}[2J\u{9B}"])
        let line = try #require(sink.lines.first)
        #expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        #expect(line.contains(#"msg="bad \"file\"""#), "\(line)")
        #expect(line.contains(#"name="x\nlevel=error forged\u{1B}[2J\u{9B}""#), "\(line)")
    }

    @Test func printableTextKeepsLettersAndEscapesControls() {
        #expect(PrintableText.escaped("Über façade 日本") == "Über façade 日本")
        #expect(PrintableText.escaped("a\nb\r\tc\u{7F}\u{85}") == #"a\nb\r\tc\u{7F}\u{85}"#)
        #expect(LogLevel(name: "warning") == .warning && LogLevel(name: "loud") == nil)
        #expect(LogLevel.allCases.sorted() == LogLevel.allCases)
    }
}
