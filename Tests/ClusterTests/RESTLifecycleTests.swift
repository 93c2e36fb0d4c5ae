import Foundation
import OCRTestSupport
import Testing

/// The REST API's edges, with curl against a real coordinator: PAGE XML of several pages as a
/// zip of schema-valid documents or one page at a time; a job that ended with nothing recognised
/// has no document (409 saying why) and every document names its job's state; cancel is
/// `POST :cancel`, `DELETE` removes a finished job and its data; listings page with tokens;
/// `Retry-After` where a client should come back.
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl") && commandExists("xmllint"), "needs curl and xmllint"))
struct RESTLifecycleTests {
    let scratch: URL
    let curl: Curl
    let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-rest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        curl = Curl(scratch: scratch)
    }

    func submit(_ base: String, _ query: String = "") async throws -> (reply: CurlReply, id: String) {
        let reply = try await curl.run(["-X", "POST", "--data-binary", "@" + tiff, base + "/v1/jobs?filename=scan.tif" + query])
        return (reply, try #require(try reply.object()["id"] as? String, "\(reply.text)"))
    }

    @Test func multiPagePAGEXMLIsAZipOfValidDocumentsOrOnePage() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2, engine: "tesseract")
        let base = try #require(cluster.httpURL)
        let (_, id) = try await submit(base)
        _ = try await curl.run(["-N", base + "/v1/jobs/\(id)/events"], maxSeconds: 120)

        let zip = scratch.appendingPathComponent("page.zip")
        let all = try await curl.run([base + "/v1/jobs/\(id)/document?format=page"], saveTo: zip)
        #expect(all.status == 200)
        #expect(all.headers.lowercased().contains("content-type: application/zip"), "\(all.headers)")
        #expect(all.headers.contains("X-OCR-Job-State: SUCCEEDED"), "\(all.headers)")
        let out = scratch.appendingPathComponent("unzipped")
        let unzip = try await runAsync(["python3", "-m", "zipfile", "-e", zip.path, out.path])
        #expect(unzip.status == 0, "Python's zipfile reads it: \(unzip.stderr)")
        let test = try await runAsync(["python3", "-m", "zipfile", "-t", zip.path])
        #expect(test.status == 0 && !test.stdout.contains("Bad"), "CRCs check: \(test.stdout) \(test.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["\(id)-0001.xml", "\(id)-0002.xml", "\(id)-0003.xml"], "\(names)")
        for name in names {
            let valid = try await runAsync(["xmllint", "--nonet", "--noout", "--schema",
                                            Binaries.schemas.appendingPathComponent("page-2019-07-15.xsd").path, out.appendingPathComponent(name).path])
            #expect(valid.status == 0, "\(name): \(valid.stderr)")
        }
        let second = try String(contentsOf: out.appendingPathComponent("\(id)-0002.xml"), encoding: .utf8)
        #expect(second.contains("Second page"))

        let one = try await curl.run([base + "/v1/jobs/\(id)/document?format=page&page=2"])
        #expect(one.status == 200)
        #expect(one.headers.lowercased().contains("content-type: application/xml"), "\(one.headers)")
        #expect(one.text.contains("Second page") && !one.text.contains("quick brown fox") && !one.text.contains("\u{0C}"))
        let file = scratch.appendingPathComponent("one.xml")
        try one.body.write(to: file)
        let valid = try await runAsync(["xmllint", "--nonet", "--noout", "--schema", Binaries.schemas.appendingPathComponent("page-2019-07-15.xsd").path, file.path])
        #expect(valid.status == 0, "\(valid.stderr)")
        let text = try await curl.run([base + "/v1/jobs/\(id)/document?format=txt&page=3"])
        #expect(text.text.trimmingCharacters(in: .whitespacesAndNewlines) == "Third page: the last one.", "\(text.text)")
        let beyond = try await curl.run([base + "/v1/jobs/\(id)/document?format=page&page=4"])
        #expect(try beyond.status == 400 && beyond.object()["code"] as? String == "OUT_OF_RANGE", "\(beyond.text)")
        await cluster.stop()
    }

    @Test func cancelDeleteAndTheDocumentsOfJobsThatEndedBadly() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 1, engine: "sleep:3000")
        let base = try #require(cluster.httpURL)

        let (submitted, id) = try await submit(base)
        #expect(submitted.status == 202 && submitted.headers.contains("Retry-After: 1"), "poll again in a second: \(submitted.headers)")
        let early = try await curl.run([base + "/v1/jobs/\(id)/document?format=txt"])
        #expect(early.status == 409 && early.headers.contains("Retry-After: 1"), "\(early.status) \(early.headers)")
        let refused = try await curl.run(["-X", "DELETE", base + "/v1/jobs/\(id)"])
        #expect(try refused.status == 409 && (refused.object()["message"] as? String ?? "").contains("cancel it first"), "\(refused.text)")
        let cancelled = try await curl.run(["-X", "POST", base + "/v1/jobs/\(id):cancel"])
        #expect(try cancelled.status == 200 && cancelled.object()["state"] as? String == "CANCELLED", "\(cancelled.text)")
        // Nothing was recognised: no document, and the answer says why (it was one byte).
        let none = try await curl.run([base + "/v1/jobs/\(id)/document?format=txt"])
        #expect(none.status == 409, "\(none.status) \(none.text)")
        #expect((try none.object()["message"] as? String ?? "").contains("ended CANCELLED with no page recognised"), "\(none.text)")

        // A job cancelled after its first page: that page, and the header says CANCELLED.
        let (_, partial) = try await submit(base)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, (try await curl.run([base + "/v1/jobs/\(partial)"]).object()["pagesDone"] as? Int ?? 0) < 1 {
            try await Task.sleep(for: .milliseconds(200))
        }
        let viaPath = try await curl.run(["-X", "POST", base + "/v1/jobs/\(partial)/cancel"])
        #expect(viaPath.status == 200, "\(viaPath.text)")
        let some = try await curl.run([base + "/v1/jobs/\(partial)/document?format=json"])
        #expect(some.status == 200 && some.headers.contains("X-OCR-Job-State: CANCELLED"), "\(some.status) \(some.headers)")

        // DELETE a finished job: gone from GET, the listing, events and documents.
        let deleted = try await curl.run(["-X", "DELETE", base + "/v1/jobs/\(id)"])
        #expect(deleted.status == 204 && deleted.body.isEmpty, "\(deleted.status) \(deleted.text)")
        #expect(try await curl.run([base + "/v1/jobs/\(id)"]).status == 404)
        #expect(try await curl.run([base + "/v1/jobs/\(id)/document?format=txt"]).status == 404)
        #expect(try await curl.run(["-X", "DELETE", base + "/v1/jobs/\(id)"]).status == 404)
        let listed = try await curl.run([base + "/v1/jobs"])
        let ids = (try listed.object()["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(!ids.contains(id) && ids.contains(partial), "\(ids)")
        #expect(cluster.coordinator.stderr.contains("job deleted over HTTP"))
        // The same from the command line: a running job is "not yet" (75), a finished one goes.
        let (_, running) = try await submit(base)
        let notYet = try await cluster.submit(["delete", running])
        #expect(notYet.status == 75 && notYet.stderr.contains("cancel it first"), "\(notYet.status) \(notYet.stderr)")
        #expect(try await cluster.submit(["cancel", running]).status == 0)
        let gone = try await cluster.submit(["delete", running])
        #expect(gone.status == 0 && gone.stdout.contains("job \(running) deleted"), "\(gone.stderr)")
        let after = try await cluster.submit(["result", running])
        #expect(after.status == 3 && after.stderr.contains("NOT_FOUND"), "gone afterwards: \(after.stderr)")
        await cluster.stop()
    }

    @Test func listingsPageWithTokens() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cluster = try await TestCluster()
        let base = try #require(cluster.httpURL)
        var submitted: [String] = []
        for _ in 0..<5 { submitted.append(try await submit(base).id) }
        var seen: [String] = [], token = "", pages = 0
        repeat {
            let reply = try await curl.run([base + "/v1/jobs?limit=2" + (token.isEmpty ? "" : "&page_token=" + token)])
            #expect(reply.status == 200, "\(reply.text)")
            let object = try reply.object()
            let jobs = (object["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(jobs.count <= 2 && !jobs.isEmpty)
            seen += jobs
            token = object["nextPageToken"] as? String ?? ""
            pages += 1
        } while !token.isEmpty && pages < 10
        #expect(pages == 3, "5 jobs, 2 a page")
        #expect(seen == submitted.reversed(), "newest first, each once: \(seen)")
        let bad = try await curl.run([base + "/v1/jobs?page_token=not-a-token"])
        #expect(bad.status == 400, "\(bad.text)")
        await cluster.stop()
    }
}
