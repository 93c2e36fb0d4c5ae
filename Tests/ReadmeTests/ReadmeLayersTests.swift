import Foundation
import Testing

/// The layer rows and table of docs/architecture.md say what `Package.swift` says: every target, its direct
/// dependencies, and no dependency on a target of the same or a higher row.
@Suite struct ReadmeLayersTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    static func section(_ text: String, _ marker: String) throws -> [String] {
        let begin = try #require(text.range(of: "<!-- \(marker):begin -->"), "the document has no \(marker) section")
        let end = try #require(text.range(of: "<!-- \(marker):end -->"), "the document's \(marker) section is not closed")
        return text[begin.upperBound..<end.lowerBound].components(separatedBy: "\n")
    }

    /// Non-test targets of Package.swift and their direct dependencies (its targets are written
    /// one per line: `.target(name: "X", dependencies: ["A", "B"]...`).
    static func packageGraph() throws -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        let line = try NSRegularExpression(pattern: #"\.(target|executableTarget|systemLibrary)\(name: "([^"]+)"(?:, dependencies: \[([^\]]*)\])?"#)
        let source = try text("Package.swift") as NSString
        for match in line.matches(in: source as String, range: NSRange(location: 0, length: source.length)) {
            let name = source.substring(with: match.range(at: 2))
            let deps = match.range(at: 3).location == NSNotFound ? "" : source.substring(with: match.range(at: 3))
            graph[name] = Set(deps.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }.filter { !$0.isEmpty })
        }
        return graph
    }

    /// Test targets of Package.swift and their direct dependencies.
    static func testTargets() throws -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        let line = try NSRegularExpression(pattern: #"\.testTarget\(name: "([^"]+)", dependencies: \[([^\]]*)\]"#)
        let source = try text("Package.swift") as NSString
        for match in line.matches(in: source as String, range: NSRange(location: 0, length: source.length)) {
            graph[source.substring(with: match.range(at: 1))] = Set(source.substring(with: match.range(at: 2)).split(separator: ",")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }.filter { !$0.isEmpty })
        }
        return graph
    }

    /// Everything `target` reaches through `graph`'s dependencies.
    static func reach(_ target: String, _ graph: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = [], todo = [target]
        while let next = todo.popLast() {
            for dep in graph[next] ?? [] where seen.insert(dep).inserted { todo.append(dep) }
        }
        return seen
    }

    /// The worker's link and its tests, the engine interface and the pure page model (and its
    /// tests) reach no OCR library: what they do needs none, and a test of them needs none
    /// installed. OCREngine does reach both (the check reads the graph it means to).
    @Test func theWorkerAndThePageModelLinkNoOCRLibrary() throws {
        let graph = try Self.packageGraph().merging(try Self.testTargets()) { a, _ in a }
        try #require(graph["OCRWorkerTests"] != nil && graph["OCRPageModelTests"] != nil, "test targets not parsed")
        let ocr: Set<String> = ["CTesseract", "CLeptonica", "OCREngine", "OCRLeptonica"]
        for target in ["OCRWorker", "OCRWorkerTests", "OCRPageEngine", "OCRPageModel", "OCRPageModelTests", "OCRTestSupport", "ocr-coordinator"] {
            let reached = Self.reach(target, graph)
            #expect(reached.isDisjoint(with: ocr), "\(target) reaches \(reached.intersection(ocr).sorted())")
        }
        #expect(Self.reach("OCREngine", graph).isSuperset(of: ["CTesseract", "CLeptonica", "OCRPageModel"]))
    }

    /// The README table: target names (a row may name several) -> their dependencies.
    static func readmeTable() throws -> [String: Set<String>] {
        var table: [String: Set<String>] = [:]
        for row in try section(try text("docs/architecture.md"), "layers") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let names = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            // Several targets in one row list their dependencies separated by ";" (or share one list).
            let lists = cells[2].split(separator: ";").map { list in
                Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }.filter { $0 != "-" && !$0.isEmpty })
            }
            for (i, name) in names.enumerated() { table[name] = lists.count == names.count ? lists[i] : lists[0] }
        }
        return table
    }

    @Test func theTableIsPackageSwift() throws {
        let graph = try Self.packageGraph()
        let table = try Self.readmeTable()
        try #require(graph.count > 20, "parsed \(graph.count) targets from Package.swift")
        #expect(Set(table.keys) == Set(graph.keys), "README lacks \(Set(graph.keys).subtracting(table.keys)), has extra \(Set(table.keys).subtracting(graph.keys))")
        for (name, deps) in graph.sorted(by: { $0.key < $1.key }) {
            #expect(table[name] == deps, "\(name): README says \(table[name].map { $0.sorted() } ?? []), Package.swift \(deps.sorted())")
        }
    }

    @Test func noTargetReachesUpOrSideways() throws {
        var row: [String: Int] = [:]
        let lines = try Self.section(try Self.text("docs/architecture.md"), "rows").filter { !$0.hasPrefix("```") && !$0.isEmpty }
        for (level, line) in lines.reversed().enumerated() {
            // "label words  Target  Target": the targets are the words after two spaces.
            let parts = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for name in parts.dropFirst() { row[name] = level }
        }
        try #require(row.count > 20, "parsed \(row.count) targets from README's rows")
        let graph = try Self.packageGraph()
        for name in graph.keys where name != "OCRTestSupport" {
            #expect(row[name] != nil, "\(name) is on no README row")
        }
        for (name, deps) in graph where name != "OCRTestSupport" {
            for dep in deps {
                guard let mine = row[name], let theirs = row[dep] else { continue }
                #expect(theirs < mine, "\(name) (row \(mine)) depends on \(dep) (row \(theirs)): not below it")
            }
        }
    }
}
