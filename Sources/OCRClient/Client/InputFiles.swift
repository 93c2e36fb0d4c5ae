import Foundation
import OCRBasics
import Glibc
import OCRWire

extension InputFile {
    /// File name extensions read from a directory; other files in it are ignored.
    public static let imageExtensions: Set<String> = ["tif", "tiff", "png", "jpg", "jpeg", "pnm", "pbm", "pgm", "ppm",
                                                       "bmp", "gif", "webp", "jp2", "j2k", "pdf"]

    /// Reads files from disk as they are (compressed form). A directory contributes its image
    /// files in name order. Throws `OCRError` naming the path: NOT_FOUND when it does not exist,
    /// PERMISSION_DENIED when it may not be read, INVALID_ARGUMENT otherwise (a symbolic-link
    /// loop, an empty directory), each with the system's reason.
    public static func load(_ urls: [URL]) throws -> [InputFile] {
        var files: [InputFile] = []
        for url in urls {
            var info = stat()
            guard stat(url.path, &info) == 0 else { throw systemError(errno, url.path) }
            if info.st_mode & S_IFMT == S_IFDIR {
                let names = try entries(of: url.path)
                    .filter { imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
                if names.isEmpty {
                    throw OCRError(.invalidArgument, "directory holds no image files", file: url.path)
                }
                for name in names {
                    files.append(try read(url.appendingPathComponent(name)))
                }
            } else {
                files.append(try read(url))
            }
        }
        return files
    }

    /// `load(_:)` on a thread of its own, so reading large scans does not block one of Swift's
    /// cooperative threads (there are only as many as cores).
    public static func loading(_ urls: [URL]) async throws -> [InputFile] {
        try await onThreadOfItsOwn { try load(urls) }
    }

    static func read(_ url: URL) throws -> InputFile {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError(errno, url.path) }
        defer { close(fd) }
        var content: [UInt8] = []
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0 { content.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw systemError(errno, url.path)
            }
            content.append(contentsOf: chunk[0..<n])
        }
        return InputFile.with {
            $0.name = url.path
            $0.content = content
        }
    }

    /// The names in directory `path` (without "." and "..").
    static func entries(of path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw systemError(errno, path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The error for a failed system call on `path`, with the system's own words
    /// ("Too many levels of symbolic links"), not a Foundation error number.
    static func systemError(_ code: Int32, _ path: String) -> OCRError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT, ENOTDIR: return OCRError(.notFound, "no such file or directory", file: path)
        case EACCES, EPERM: return OCRError(.permissionDenied, "cannot read: \(reason)", file: path)
        default: return OCRError(.invalidArgument, "cannot read: \(reason)", file: path)
        }
    }
}
