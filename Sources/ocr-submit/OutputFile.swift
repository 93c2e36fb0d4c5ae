import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where `-o FILE` writes. A regular file (or a new one) is replaced atomically: a temporary
/// file beside it, renamed, so a job that fails to write leaves an earlier file as it was. A
/// symbolic link is followed and its target replaced, so the link stays. Anything else that
/// exists (`/dev/null`, a terminal, a FIFO) is written in place: renaming over it would replace
/// the device node with a regular file.
struct OutputFile {
    /// The path as given, for messages.
    let path: String
    /// The path actually written: `path` with symbolic links resolved.
    private let resolved: String
    private let isSpecial: Bool

    init(_ path: String) {
        self.path = path
        resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var info = stat()
        isSpecial = stat(resolved, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
    }

    /// Why the file cannot be written, or nil when it can: checked before any work starts, so a
    /// long job never ends in "cannot write".
    var problem: String? {
        var info = stat()
        if stat(resolved, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
            if access(resolved, W_OK) != 0 { return String(cString: strerror(errno)) }
            if isSpecial { return nil }
        }
        let directory = (resolved as NSString).deletingLastPathComponent
        let parent = directory.isEmpty ? "." : directory
        guard stat(parent, &info) == 0 else { return "\(parent): \(String(cString: strerror(errno)))" }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(parent) is not a directory" }
        // The temporary file is created beside the target: the directory must be writable.
        if access(parent, W_OK) != 0 { return "\(parent): \(String(cString: strerror(errno)))" }
        return nil
    }

    func write(_ data: Data) throws {
        if isSpecial {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: resolved))
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
        } else {
            try data.write(to: URL(fileURLWithPath: resolved), options: .atomic)
        }
    }
}
