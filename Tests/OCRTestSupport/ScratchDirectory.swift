import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it when
/// the last reference goes: a suite that makes one in its `init` (a struct has no `deinit`)
/// leaves nothing behind in `/tmp` after each test.
package final class ScratchDirectory: Sendable {
    package let url: URL

    /// Creates `<tmp>/<prefix>-<UUID>`.
    package init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
