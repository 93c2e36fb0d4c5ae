import Foundation

/// A small tmpfs mounted for one test, so that "the disk is full" is a real ENOSPC from the
/// kernel. Mounting needs root with CAP_SYS_ADMIN (CI has it); gate tests on `isAvailable`.
package final class ScratchFilesystem: Sendable {
    package let directory: URL

    /// Whether this process may mount a tmpfs (probed once by mounting a 1 MB one).
    package static let isAvailable: Bool = {
        guard let probe = try? ScratchFilesystem(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a fresh tmpfs of `megabytes` in a new temporary directory.
    package init(megabytes: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mount = try runProcess(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path])
        guard mount.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw TestProcessError("mount tmpfs failed: \(mount.stderr)")
        }
    }

    /// Fills the filesystem to its last block with `name`.
    package func fill(_ name: String = "filler") throws {
        _ = try runProcess(["dd", "if=/dev/zero", "of=\(directory.appendingPathComponent(name).path)", "bs=64k"])
    }

    package func remove(_ name: String = "filler") throws {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }

    package func unmount() {
        _ = try? runProcess(["umount", "-l", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }
}
