import Foundation
import OCRTestSupport
import Testing

/// The coordinator's HTTP endpoint with real curl against a real coordinator process (and real
/// Tesseract workers where pages are recognised): the REST flow, the event stream, downloads,
/// limits, authentication, and that bad requests leave the coordinator serving.
@Suite(.serialized, .blocking, .enabled(if: commandExists("curl") && commandExists("qpdf") && commandExists("pdftotext"),
                                        "needs curl, qpdf and poppler-utils: run `make deps`"))
struct HTTPTests {
    private let directory: ScratchDirectory
    var scratch: URL { directory.url }

    init() throws {
        directory = try ScratchDirectory("ocr-http")
    }

    /// Submit a 3-page TIFF, follow its events to the end, download txt and pdf; resume the
    /// event stream with Last-Event-ID.
    @Test func submitFollowAndDownload() async throws {
        let cluster = try await TestCluster()
        try await cluster.addWorker(slots: 2)
        let base = try #require(cluster.httpURL)
        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path

        let submitted = try await curl(["-X", "POST", "--data-binary", "@" + tiff, "-H", "Content-Type: image/tiff",
                                        base + "/v1/jobs?filename=multipage.tif&languages=eng"])
        #expect(submitted.status == 202, "\(submitted.text)")
        let job = try submitted.object()
        let id = try #require(job["id"] as? String)
        #expect(job["pageCount"] as? Int == 3)
        #expect(submitted.headers.contains("Location: /v1/jobs/\(id)"))

        let events = try await curl(["-N", base + "/v1/jobs/\(id)/events"], maxSeconds: 180)
        #expect(events.status == 200)
        #expect(events.headers.lowercased().contains("content-type: text/event-stream"))
        let messages = ServerSentEvents.parse(events.text)
        let pages = messages.filter { $0.name == "page_completed" }.compactMap { $0.data["pageIndex"] as? Int }
        #expect(pages.sorted() == [0, 1, 2], "\(events.text)")
        let finished = try #require(messages.last, "no events: \(events.text)")
        #expect(finished.name == "finished")
        #expect(finished.data["state"] as? String == "SUCCEEDED")
        #expect(finished.id == "3", "the last id is the first page not delivered")
        let firstPage = messages.first { $0.name == "page_completed" && $0.data["pageIndex"] as? Int == 0 }
        let firstText = firstPage?.data["text"] as? String ?? ""
        #expect(firstText.contains("quick brown fox"))

        let resumed = ServerSentEvents.parse(try await curl(["-N", "-H", "Last-Event-ID: 2", base + "/v1/jobs/\(id)/events"]).text)
        #expect(resumed.filter { $0.name == "page_completed" }.compactMap { $0.data["pageIndex"] as? Int } == [2])
        #expect(resumed.last?.name == "finished")

        let text = try await curl([base + "/v1/jobs/\(id)/document?format=txt"])
        #expect(text.status == 200)
        #expect(text.text.contains("The quick brown fox jumps over the lazy dog."))
        #expect(text.text.contains("Third page: the last one."))

        // The structure: Markdown with the pages marked, HTML with a section per page.
        let markdown = try await curl([base + "/v1/jobs/\(id)/document?format=markdown"])
        #expect(markdown.status == 200)
        #expect(markdown.headers.lowercased().contains("content-type: text/markdown"))
        #expect(markdown.text.contains("The quick brown fox jumps over the lazy dog.") && markdown.text.contains("<!-- page 3 -->"), "\(markdown.text)")
        let html = try await curl([base + "/v1/jobs/\(id)/document?format=html"])
        #expect(html.headers.lowercased().contains("content-type: text/html"))
        #expect(html.text.components(separatedBy: "<section class=\"page\"").count == 4, "\(html.text)")

        let pdf = scratch.appendingPathComponent("job.pdf")
        let download = try await curl([base + "/v1/jobs/\(id)/document?format=pdf"], saveTo: pdf)
        #expect(download.status == 200)
        #expect(download.headers.lowercased().contains("content-type: application/pdf"))
        let check = try await runAsync(["qpdf", "--check", pdf.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let layer = try await runAsync(["pdftotext", "-f", "2", "-l", "2", pdf.path, "-"])
        #expect(layer.stdout.contains("Second page of the multipage file."), "\(layer.stdout)")

        let listed = try await curl([base + "/v1/jobs?state=SUCCEEDED"])
        let jobs = try #require(try listed.object()["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["id"] as? String } == [id])
        await cluster.stop()
    }

    /// Without workers: multipart and JSON submissions are accepted and cancelled; bad requests
    /// get the right status and a JSON error naming what is wrong; the coordinator keeps serving.
    @Test func errorsAndCancel() async throws {
        let cluster = try await TestCluster(coordinatorArguments: ["--max-http-body-mb", "1"])
        let base = try #require(cluster.httpURL)
        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path

        let form = try await curl(["-F", "file=@\(tiff);filename=scan.tif", "-F", #"options={"pages": "2-3", "languages": "eng"}"#,
                                   base + "/v1/jobs"])
        #expect(form.status == 202, "\(form.text)")
        let id = try #require(try form.object()["id"] as? String)
        #expect(try form.object()["pageCount"] as? Int == 2)
        #expect(try form.object()["files"] as? [String] == ["scan.tif"])

        let running = try await curl([base + "/v1/jobs/\(id)/document?format=txt"])
        #expect(running.status == 409)
        #expect(try running.object()["code"] as? String == "FAILED_PRECONDITION")

        let cancelled = try await curl(["-X", "POST", base + "/v1/jobs/\(id):cancel"])
        #expect(cancelled.status == 200, "\(cancelled.text)")
        #expect(try cancelled.object()["state"] as? String == "CANCELLED")

        let content = try Data(contentsOf: URL(fileURLWithPath: tiff)).base64EncodedString()
        let json = try await curl(["-H", "Content-Type: application/json", "--data-binary",
                                   #"{"files": [{"name": "a.tif", "content": "\#(content)"}], "job_key": "k1", "options": {"level": "fast"}}"#,
                                   base + "/v1/jobs"])
        #expect(json.status == 202, "\(json.text)")
        let again = try await curl(["-H", "Content-Type: application/json", "--data-binary",
                                    #"{"files": [{"name": "a.tif", "content": "\#(content)"}], "job_key": "k1", "options": {"level": "fast"}}"#,
                                    base + "/v1/jobs"])
        #expect(again.status == 200, "the same job_key is the same job")
        #expect(try again.object()["id"] as? String == (try json.object()["id"] as? String))

        let big = scratch.appendingPathComponent("big.bin")
        try Data(count: 3 << 20).write(to: big)
        let tooLarge = try await curl(["-X", "POST", "--data-binary", "@" + big.path, base + "/v1/jobs"])
        #expect(tooLarge.status == 413)
        #expect(try tooLarge.object()["code"] as? String == "RESOURCE_EXHAUSTED")
        // Chunked: no length to refuse at once. Up to twice the limit is read and dropped, then
        // 413; beyond, the connection is closed without a final answer (curl reports the
        // interim 100 Continue it had).
        let overLimit = scratch.appendingPathComponent("over.bin")
        try Data(count: 3 << 19).write(to: overLimit)
        let chunked = try await curl(["-X", "POST", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + overLimit.path, base + "/v1/jobs"])
        #expect(chunked.status == 413)
        let endless = try await curl(["-X", "POST", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + big.path, base + "/v1/jobs"])
        #expect(endless.status == 100)

        let garbage = try await curl(["-H", "Content-Type: application/json", "--data-binary", "{\"files\": [", base + "/v1/jobs"])
        #expect(garbage.status == 400)
        #expect(try garbage.object()["code"] as? String == "INVALID_ARGUMENT")
        let unknown = try await curl(["-H", "Content-Type: application/json", "--data-binary", #"{"files": [], "colour": "red"}"#, base + "/v1/jobs"])
        #expect(unknown.status == 400)
        #expect((try unknown.object()["message"] as? String ?? "").contains("colour"))
        let notAnImage = try await curl(["-X", "POST", "--data-binary", "not an image", base + "/v1/jobs?filename=notes.txt"])
        #expect(notAnImage.status == 400)
        #expect(try notAnImage.object()["file"] as? String == "notes.txt")
        let badOption = try await curl(["-X", "POST", "--data-binary", "@" + tiff, base + "/v1/jobs?dpi=lots"])
        #expect(badOption.status == 400)
        #expect((try badOption.object()["message"] as? String ?? "").contains("dpi"))
        let missing = try await curl([base + "/v1/jobs/job-000000000000"])
        #expect(missing.status == 404)
        let wrongMethod = try await curl(["-X", "PUT", base + "/v1/jobs"])
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers.contains("Allow: GET, POST"))

        let health = try await curl([base + "/healthz"])
        #expect(health.status == 200)
        let ready = try await curl([base + "/readyz"])
        #expect(ready.status == 200, "\(ready.text)")
        let listed = try await curl([base + "/v1/jobs"])
        #expect((try listed.object()["jobs"] as? [Any])?.count == 2)
        await cluster.stop()
    }

    /// With `--http-tokens`: no token or a wrong one is 401 (the probes stay open); each name
    /// sees only its own jobs, an admin name every job.
    @Test func bearerTokens() async throws {
        let tokens = scratch.appendingPathComponent("tokens")
        try """
        # name token [admin]
        alice alice-token-0123456789
        bob   bob-token-0123456789ab
        ops   ops-token-0123456789ab admin
        """.write(to: tokens, atomically: true, encoding: .utf8)
        let cluster = try await TestCluster(coordinatorArguments: ["--http-tokens", tokens.path])
        let base = try #require(cluster.httpURL)
        let tiff = Binaries.fixtures.appendingPathComponent("multipage.tif").path

        #expect(try await curl([base + "/v1/jobs"]).status == 401)
        #expect(try await curl(["-H", "Authorization: Bearer nope", base + "/v1/jobs"]).status == 401)
        #expect(try await curl([base + "/metrics"]).status == 401)
        #expect(try await curl([base + "/healthz"]).status == 200)
        #expect(try await curl([base + "/readyz"]).status == 200)

        let alice = ["-H", "Authorization: Bearer alice-token-0123456789"]
        let bob = ["-H", "Authorization: Bearer bob-token-0123456789ab"]
        let ops = ["-H", "Authorization: Bearer ops-token-0123456789ab"]
        let submitted = try await curl(alice + ["-X", "POST", "--data-binary", "@" + tiff, base + "/v1/jobs"])
        #expect(submitted.status == 202, "\(submitted.text)")
        let id = try #require(try submitted.object()["id"] as? String)
        #expect(try await curl(bob + [base + "/v1/jobs/\(id)"]).status == 404, "another name's job does not exist for bob")
        #expect(try await curl(bob + ["-X", "DELETE", base + "/v1/jobs/\(id)"]).status == 404)
        #expect(try await curl(bob + ["-X", "POST", base + "/v1/jobs/\(id):cancel"]).status == 404)
        #expect((try await curl(bob + [base + "/v1/jobs"]).object()["jobs"] as? [Any])?.count == 0)
        #expect(try await curl(alice + [base + "/v1/jobs/\(id)"]).status == 200)
        #expect(try await curl(ops + [base + "/v1/jobs/\(id)"]).status == 200, "admin sees every job")
        #expect(try await curl([base + "/?access_token=alice-token-0123456789"]).status == 200, "the status page opens by URL")
        await cluster.stop()
    }

    /// `--http-cert`/`--http-key`: HTTPS through libmicrohttpd (GnuTLS), a self-signed certificate
    /// made with openssl; curl trusting it gets answers, plain HTTP on that port gets none.
    @Test(.enabled(if: commandExists("openssl"), "needs openssl")) func https() async throws {
        let key = scratch.appendingPathComponent("key.pem").path, cert = scratch.appendingPathComponent("cert.pem").path
        let made = try await runAsync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                       "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        #expect(made.status == 0, "\(made.stderr)")
        let cluster = try await TestCluster(coordinatorArguments: ["--http-cert", cert, "--http-key", key])
        let url = try #require(cluster.coordinator.stderr.firstMatch(of: /"http listening" url=(https:\S+)/).map { String($0.1) },
                               "\(cluster.coordinator.stderr)")
        let secure = try await curl(["--cacert", cert, url + "/healthz"])
        #expect(secure.status == 200)
        #expect(secure.text == "ok\n")
        let jobs = try await curl(["--cacert", cert, url + "/v1/jobs"])
        #expect(jobs.status == 200, "\(jobs.text)")
        let plain = try await curl([url.replacingOccurrences(of: "https://", with: "http://") + "/healthz"], maxSeconds: 5)
        #expect(plain.status != 200, "plain HTTP is not served on the TLS port")
        let untrusted = try await curl([url + "/healthz"], maxSeconds: 5)
        #expect(untrusted.status == 0, "curl refuses the self-signed certificate it was not given")
        await cluster.stop()
    }

    func curl(_ arguments: [String], maxSeconds: Int = 60, saveTo file: URL? = nil) async throws -> CurlReply {
        try await Curl(scratch: scratch).run(arguments, maxSeconds: maxSeconds, saveTo: file)
    }
}
