import Foundation
import OCRTestSupport
import Testing
@testable import OCRWire

/// Our codec against two independent implementations, for every message in proto/:
/// Python `protobuf` (C upb backend) and Debian's `protoc` (C++), driven by
/// `scripts/wire_conformance.py`. See `Fixtures.all` for the values and `CanonicalLines` for how
/// values are compared field by field.
@Suite(.enabled(if: ConformanceRun.peersAvailable, "protoc or python3 protobuf missing: run `make deps`"), .blocking)
struct ConformanceTests {
    /// The generated Swift matches what `scripts/gen_wire.py` makes from proto/ today.
    @Test func generatedCodeIsFresh() throws {
        let out = try runProcess(["python3", "scripts/gen_wire.py", "--check"], in: Binaries.repoRoot)
        #expect(out.status == 0, "gen_wire.py --check: \(out.stderr)")
    }

    /// Every message of proto/ has a fixture, and some fixture of that type sets every field
    /// (every oneof case included) to a non-default value, as upb sees it. A message or field
    /// added to proto/ without a fixture fails here.
    @Test func everyMessageAndFieldHasAFixture() throws {
        let run = try ConformanceRun.shared.get()
        let fixtureTypes = Set(Fixtures.all.map(\.typeName))
        #expect(run.messages.count >= 41)
        for (message, fields) in run.messages {
            #expect(fixtureTypes.contains(message), "no fixture for \(message): add one to Fixtures.all")
            let covered = run.coverage[message] ?? []
            for field in fields where !covered.contains(field) {
                Issue.record("no fixture of \(message) sets field \(field) to a non-default value")
            }
        }
        for type in fixtureTypes { #expect(run.messages[type] != nil, "fixture type \(type) is not in proto/") }
    }

    /// (a) Bytes we encode, decoded by upb and by `protoc --decode`, give the same field values.
    @Test(arguments: Fixtures.all.map(\.id))
    func peersDecodeOurBytes(_ id: String) throws {
        let run = try ConformanceRun.shared.get()
        let fixture = try #require(Fixtures.all.first { $0.id == id })
        let result = try #require(run.results[id], "no result for \(id)")
        try #require(result.error == nil, "\(id): \(result.error ?? "")")
        let expected = CanonicalLines.of(fixture.message)
        expectSameLines(expected, result.upbLines, "\(id): upb decoding of our bytes")
        expectSameLines(expected, result.textLines, "\(id): protoc --decode of our bytes")
    }

    /// (b) Bytes `protoc --encode` made from protoc's text decode with ours to the same values,
    /// and re-encode to exactly our bytes.
    @Test(arguments: Fixtures.all.map(\.id))
    func weDecodeProtocBytes(_ id: String) throws {
        let run = try ConformanceRun.shared.get()
        let fixture = try #require(Fixtures.all.first { $0.id == id })
        let result = try #require(run.results[id])
        let protocBytes = try #require(result.protocBytes, "\(id): \(result.error ?? "protoc made no bytes")")
        let decoded = try decodeAgain(fixture.message, protocBytes)
        expectSameLines(CanonicalLines.of(fixture.message), CanonicalLines.of(decoded), "\(id): our decoding of protoc's bytes")
        #expect(decoded.serializedBytes() == fixture.message.serializedBytes(), "\(id): re-encoding differs")
    }

    /// Our encoding is byte for byte what protoc (C++) encodes for the same values: field order,
    /// packed repeated scalars, defaults omitted, -0.0 written, map entries sorted by key.
    @Test(arguments: Fixtures.all.map(\.id))
    func ourBytesEqualProtocBytes(_ id: String) throws {
        let run = try ConformanceRun.shared.get()
        let fixture = try #require(Fixtures.all.first { $0.id == id })
        let protocBytes = try #require(run.results[id]?.protocBytes, "\(id): protoc made no bytes")
        expectSameBytes(fixture.message.serializedBytes(), protocBytes, "\(id): ours vs protoc")
    }

    /// upb's own encoding of what it decoded from our bytes decodes with ours to the fixture.
    /// (Not compared byte for byte: upb's deterministic mode sorts the empty map key last, C++
    /// and we sort it first; both are valid encodings.)
    @Test(arguments: Fixtures.all.map(\.id))
    func weDecodeUpbBytes(_ id: String) throws {
        let run = try ConformanceRun.shared.get()
        let fixture = try #require(Fixtures.all.first { $0.id == id })
        let upbBytes = try #require(run.results[id]?.upbBytes, "\(id): upb made no bytes")
        let decoded = try decodeAgain(fixture.message, upbBytes)
        expectSameLines(CanonicalLines.of(fixture.message), CanonicalLines.of(decoded), "\(id): our decoding of upb's bytes")
    }
}

/// Decodes `bytes` as the same type as `message`.
func decodeAgain<M: ProtoMessage>(_ message: M, _ bytes: [UInt8]) throws(WireDecodingError) -> M {
    try M(serializedBytes: bytes)
}

func expectSameBytes(_ ours: [UInt8], _ theirs: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard ours != theirs else { return }
    let at = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, theirs.count)
    Issue.record("\(what): \(ours.count) vs \(theirs.count) bytes, first difference at offset \(at)", sourceLocation: sourceLocation)
}

func expectSameLines(_ expected: [String], _ actual: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard expected != actual else { return }
    let e = Set(expected), a = Set(actual)
    let missing = expected.filter { !a.contains($0) }.prefix(10)
    let extra = actual.filter { !e.contains($0) }.prefix(10)
    Issue.record("""
        \(what) differs from the fixture
          expected, not found: \(missing.joined(separator: "\n    "))
          found, not expected: \(extra.joined(separator: "\n    "))
        """, sourceLocation: sourceLocation)
}

/// One run of `scripts/wire_conformance.py` over every fixture, shared by the tests above.
struct ConformanceRun: Sendable {
    struct FixtureResult: Sendable {
        var upbLines: [String]
        var textLines: [String]
        /// What `protoc --encode` made from protoc's text of our bytes.
        var protocBytes: [UInt8]?
        /// upb's re-encoding of our bytes.
        var upbBytes: [UInt8]?
        var error: String?
    }

    var results: [String: FixtureResult]
    /// Message full name -> its field names, from proto/.
    var messages: [String: [String]]
    /// Message full name -> fields some fixture sets to a non-default value.
    var coverage: [String: Set<String>]

    static let peersAvailable: Bool = commandExists("protoc")
        && (try? runProcess(["python3", "-c", "import google.protobuf"]).status) == 0

    static let shared: Result<ConformanceRun, any Error> = Result { try ConformanceRun.make() }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private static func make() throws -> ConformanceRun {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ocrwire-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func bytes(_ file: Any?) throws -> [UInt8]? {
            guard let file = file as? String else { return nil }
            return [UInt8](try Data(contentsOf: dir.appendingPathComponent(file)))
        }
        var manifest: [[String: String]] = []
        for fixture in Fixtures.all {
            let file = fixture.id + ".bin"
            try Data(fixture.message.serializedBytes()).write(to: dir.appendingPathComponent(file))
            manifest.append(["id": fixture.id, "type": fixture.typeName, "file": file])
        }
        try JSONSerialization.data(withJSONObject: manifest).write(to: dir.appendingPathComponent("manifest.json"))

        let script = Binaries.repoRoot.appendingPathComponent("scripts/wire_conformance.py").path
        let check = try runProcess(["python3", script, "check", "--dir", dir.path])
        guard check.status == 0 else { throw Failure(description: "wire_conformance.py check failed: \(check.stderr)") }
        let describe = try runProcess(["python3", script, "describe"])
        guard describe.status == 0 else { throw Failure(description: "wire_conformance.py describe failed: \(describe.stderr)") }

        let result = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("result.json"))) as? [String: Any]
        guard let result, result["upb"] as? String == "upb" else { throw Failure(description: "Python protobuf is not on the upb backend") }
        var results: [String: FixtureResult] = [:]
        for (id, any) in result["results"] as? [String: [String: Any]] ?? [:] {
            results[id] = FixtureResult(
                upbLines: (any["upb_lines"] as? [String] ?? []).sorted(),
                textLines: (any["text_lines"] as? [String] ?? []).sorted(),
                protocBytes: try bytes(any["protoc_file"]),
                upbBytes: try bytes(any["upb_file"]),
                error: any["error"] as? String)
        }
        var coverage: [String: Set<String>] = [:]
        for (type, fields) in result["coverage"] as? [String: [String]] ?? [:] { coverage[type] = Set(fields) }
        var messages: [String: [String]] = [:]
        let described = try JSONSerialization.jsonObject(with: Data(describe.stdout.utf8)) as? [String: Any]
        for m in described?["messages"] as? [[String: Any]] ?? [] {
            guard let name = m["name"] as? String else { continue }
            messages[name] = (m["fields"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        return ConformanceRun(results: results, messages: messages, coverage: coverage)
    }
}
