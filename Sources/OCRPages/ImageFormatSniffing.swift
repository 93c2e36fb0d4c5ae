import OCRWire

extension PageDescriptor {
    /// The page's format: as declared, else sniffed from its bytes (nil when unknown).
    package var resolvedFormat: ImageFormat? { format == .unspecified ? ImageFormat.sniff(content) : format }
}

extension ImageFormat {
    /// The format named by the first bytes of a file, or `nil` when no known signature matches.
    /// The proto lets clients leave `format` unspecified; this is how it is filled in.
    package static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ sig: [UInt8]) -> Bool { bytes.count >= sig.count && Array(bytes.prefix(sig.count)) == sig }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        // Classic TIFF (42) and BigTIFF (43), either byte order.
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("BM".utf8)) { return .bmp }
        if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { return .jp2 }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) { return .pnm }
        return nil
    }

    /// The format a file name's extension suggests (used to pick image files in a directory).
    package static func fromExtension(_ name: String) -> ImageFormat? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        case "tif", "tiff": return .tiff
        case "pnm", "pbm", "pgm", "ppm": return .pnm
        case "bmp": return .bmp
        case "gif": return .gif
        case "webp": return .webp
        case "jp2", "j2k": return .jp2
        case "pdf": return .pdf
        default: return nil
        }
    }
}
