import Foundation
import OCRHTTP
import OCRTestSupport
import Testing

/// libmicrohttpd's one wrapper on a real socket, driven by curl: the request as the handler sees
/// it (method, path, query, headers, body, multipart parts), the body limit's 413, addresses.
@Suite(.blocking, .enabled(if: commandExists("curl"), "needs curl")) struct HTTPServerTests {
    /// Echoes what it was asked, one `key=value` line each.
    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        var lines = ["method=\(request.method)", "path=\(request.path)", "body=\(String(decoding: request.body, as: UTF8.self))"]
        lines += request.query.sorted { $0.key < $1.key }.map { "query.\($0.key)=\($0.value)" }
        lines += request.formParts.map { "part.\($0.name)=\($0.filename ?? "-"):\(String(decoding: $0.data, as: UTF8.self))" }
        lines.append("header.x-test=\(request.header("X-Test") ?? "-")")
        return HTTPResponse(status: 200, contentType: "text/plain", text: lines.joined(separator: "\n"))
    }

    static func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let run = try runProcess(["curl", "-s", "-o", "-", "-w", "\n%{http_code}"] + arguments)
        var lines = run.stdout.components(separatedBy: "\n")
        let status = Int(lines.removeLast()) ?? -1
        return (status, lines.joined(separator: "\n"))
    }

    @Test func requestsReachTheHandlerAsSent() throws {
        let server = try HTTPServer(HTTPServerConfiguration(address: HTTPListenAddress(host: "127.0.0.1", port: 0), maxBodyBytes: 1 << 20),
                                    handler: Self.echo)
        defer { server.stop() }
        #expect(server.port > 0)
        let base = "http://127.0.0.1:\(server.port)"
        let get = try Self.curl(["-H", "X-Test: yes", "\(base)/v1/jobs?limit=5&state=running"])
        #expect(get.status == 200)
        #expect(get.body.contains("method=GET") && get.body.contains("path=/v1/jobs"), "\(get.body)")
        #expect(get.body.contains("query.limit=5") && get.body.contains("query.state=running") && get.body.contains("header.x-test=yes"), "\(get.body)")
        let post = try Self.curl(["--data-binary", "hello body", "\(base)/echo"])
        #expect(post.status == 200 && post.body.contains("method=POST") && post.body.contains("body=hello body"), "\(post.body)")
        let form = try Self.curl(["-F", "file=@/etc/hostname;filename=scan.tif", "-F", "options={\"level\":\"fast\"}", "\(base)/form"])
        #expect(form.status == 200)
        #expect(form.body.contains("part.file=scan.tif:") && form.body.contains(#"part.options=-:{"level":"fast"}"#), "\(form.body)")
    }

    @Test func aBodyOverTheLimitIs413AndTheServerKeepsServing() throws {
        let server = try HTTPServer(HTTPServerConfiguration(address: HTTPListenAddress(host: "127.0.0.1", port: 0), maxBodyBytes: 1_000),
                                    handler: Self.echo)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let big = String(repeating: "x", count: 5_000)
        #expect(try Self.curl(["--data-binary", big, "\(base)/upload"]).status == 413)
        #expect(try Self.curl(["--data-binary", "small", "\(base)/upload"]).status == 200)
    }

    @Test func listenAddressesParse() {
        #expect(HTTPListenAddress(parsing: "127.0.0.1:8080") == HTTPListenAddress(host: "127.0.0.1", port: 8080))
        #expect(HTTPListenAddress(parsing: "[::1]:8080") == HTTPListenAddress(host: "::1", port: 8080))
        #expect(HTTPListenAddress(parsing: "*:80") == HTTPListenAddress(host: nil, port: 80))
        for bad in ["8080", ":8080", "host:99999", "host:x", ""] { #expect(HTTPListenAddress(parsing: bad) == nil, "\(bad)") }
        #expect(HTTPListenAddress(host: "127.0.0.2", port: 1).isLoopback && HTTPListenAddress(host: "localhost", port: 1).isLoopback)
        #expect(!HTTPListenAddress(host: nil, port: 1).isLoopback && !HTTPListenAddress(host: "10.0.0.1", port: 1).isLoopback)
        #expect(HTTPListenAddress(host: "::1", port: 9).description == "[::1]:9" && HTTPListenAddress(host: nil, port: 9).description == "*:9")
    }
}
