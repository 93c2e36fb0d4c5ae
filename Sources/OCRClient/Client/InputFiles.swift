import Foundation
import OCRWire

extension InputFile {
    /// File name extensions read from a directory; other files in it are ignored.
    public static let imageExtensions: Set<String> = ["tif", "tiff", "png", "jpg", "jpeg", "pnm", "pbm", "pgm", "ppm",
                                                       "bmp", "gif", "webp", "jp2", "j2k", "pdf"]

    /// Reads files from disk as they are (compressed form). A directory contributes its image
    /// files in name order. Throws `OCRError` NOT_FOUND / INVALID_ARGUMENT naming the path.
    public static func load(_ urls: [URL]) throws -> [InputFile] {
        var files: [InputFile] = []
        for url in urls {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw OCRError(.notFound, "no such file or directory", file: url.path)
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
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
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try load(urls) })
            }
        }
    }

    static func read(_ url: URL) throws -> InputFile {
        do {
            let data = try Data(contentsOf: url)
            return InputFile.with {
                $0.name = url.path
                $0.content = [UInt8](data)
            }
        } catch {
            throw OCRError(.invalidArgument, "cannot read: \(error.localizedDescription)", file: url.path)
        }
    }
}
