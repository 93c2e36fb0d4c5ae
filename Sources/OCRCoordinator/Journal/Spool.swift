import Foundation

/// Uploaded files, each stored once under its SHA-256 (`PageDescriptor.digest`), in a directory
/// beside the journal: the journal's page rows name a file and how to cut the page out of it, so
/// a job's journal costs its file once, not once per page. Written and swept only by the
/// journal's thread (`Journal`), which knows which unfinished jobs still use each file.
final class Spool {
    let directory: String
    private let sync: Bool

    /// Creates `directory` when missing. `sync`: fsync each file before it is named (`--journal-sync full`).
    init(directory: String, sync: Bool) throws(JournalError) {
        self.directory = directory
        self.sync = sync
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw JournalError("cannot create the spool directory \(directory): \(error.localizedDescription)")
        }
    }

    private func path(_ digest: String) -> String { directory + "/" + digest }

    /// Whether the file is already stored.
    func contains(_ digest: String) -> Bool { access(path(digest), F_OK) == 0 }

    /// Stores `bytes` as `digest` unless present: written to a temporary name, then renamed, so a
    /// crash leaves no half file under a real name. Throws naming the file and the OS's reason
    /// (ENOSPC: the disk is full).
    func store(_ bytes: [UInt8], as digest: String) throws(JournalError) {
        guard !contains(digest) else { return }
        let temporary = directory + "/.incoming-" + digest
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let error = failure("write", temporary)
                close(fd)
                unlink(temporary)
                throw error
            }
            written += n
        }
        if sync, fsync(fd) != 0 {
            let error = failure("fsync", temporary)
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path(digest)) == 0 else {
            let error = failure("rename", temporary)
            unlink(temporary)
            throw error
        }
    }

    /// The stored file, or nil when it is missing.
    func load(_ digest: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(digest)).map { [UInt8]($0) }
    }

    func remove(_ digest: String) { unlink(path(digest)) }

    /// Removes every file but `keeping` (leftovers of jobs that finished, or of a crash between
    /// storing a file and committing its job).
    func sweep(keeping: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where !keeping.contains(name) { unlink(directory + "/" + name) }
    }

    private func failure(_ what: String, _ file: String) -> JournalError {
        let code = errno
        return JournalError("spool: cannot \(what) \(file): \(String(cString: strerror(code)))", errno: code)
    }
}
