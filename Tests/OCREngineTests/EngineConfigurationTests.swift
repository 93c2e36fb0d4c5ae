import Foundation
@testable import OCREngine
import Testing

/// Where each level's models come from.
@Suite struct EngineConfigurationTests {
    @Test func levelsPickTheirModelDirectoryOnlyWhenItHasTheLanguages() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fast-models-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = EngineConfiguration.defaultTessdataPath
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/eng.traineddata", withDestinationPath: base + "/eng.traineddata")
        let config = EngineConfiguration(tessdataPath: base, fastTessdataPath: dir.path)
        #expect(config.modelPath(fast: true, languages: ["eng"]) == dir.path)
        #expect(config.modelPath(fast: true, languages: ["eng", "deu"]) == base)
        #expect(config.modelPath(fast: false, languages: ["eng"]) == base)
    }
}
