import Foundation
import OCRTestSupport
import Testing

/// The same pages and options give the same document from one process to the next and on a
/// busy machine as on an idle one: every budget is counted in work, and nothing follows the
/// order of a hashed collection (Swift seeds its hashing afresh in each process). Real pages
/// with structure to find (a ruled table, a transcript's numbered lines, a page of prose), read
/// at the default level by `ocr-submit --local` in separate processes, compared as HTML (the
/// words, their boxes and the structure).
@Suite(.serialized) struct SameDocumentTests {
    static let pages = ["real/camelot/agstat-p1-districts.png", "real/pdfplumber/scotus-transcript-p1-fax.png",
                        "real/multipage/testpage.png"].map { Binaries.fixtures.appendingPathComponent($0).path }

    static func document() async throws -> String {
        let run = try await runAsync([Binaries.path("ocr-submit"), "--local", "--workers", "2", "--quiet", "--format", "html"] + pages)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        return run.stdout
    }

    @Test func aBusyMachineAndAnotherProcessGiveTheSameDocument() async throws {
        let idle = try await Self.document()
        let again = try await Self.document()
        let busy = try await whileTheMachineIsBusy { try await Self.document() }
        #expect(idle.contains("<table") && idle.contains("Subarnapur"), "the table is found")
        let sameAgain = again == idle, sameBusy = busy == idle
        #expect(sameAgain, "a second process read another document")
        #expect(sameBusy, "a busy machine read another document")
    }
}
