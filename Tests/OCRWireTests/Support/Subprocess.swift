import Foundation

/// Runs the independent peers (`protoc`, `python3`) the conformance tests compare against.
enum Subprocess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` through `/usr/bin/env` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        // Files, not pipes: a child writing more than a pipe buffer would block while we wait.
        let tmp = FileManager.default.temporaryDirectory
        let outURL = tmp.appendingPathComponent("ocrwire-\(UUID().uuidString).out")
        let errURL = tmp.appendingPathComponent("ocrwire-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// True when `tool` is on PATH.
    static func available(_ tool: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(tool)"]).status) == 0
    }

    /// The package root (this file is Tests/OCRWireTests/Support/Subprocess.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
