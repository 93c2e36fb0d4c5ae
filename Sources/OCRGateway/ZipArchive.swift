/// A ZIP archive (PKWARE APPNOTE 6.3) of files stored without compression: what the REST API
/// returns where one request yields several documents (PAGE XML, one file per page). Stored
/// entries need no compressor, and XML this size gains little from one next to the transfer's.
enum ZipArchive {
    static func stored(_ files: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for file in files {
            let name = Array(file.name.utf8)
            let crc = CRC32.checksum(file.bytes)
            let offset = UInt32(out.count)
            // Local file header: version 2.0, flag bit 11 (UTF-8 names), stored, no time.
            out += le32(0x0403_4b50) + le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(file.bytes.count)) + le32(UInt32(file.bytes.count)) + le16(UInt16(name.count)) + le16(0)
            out += name + file.bytes
            central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(file.bytes.count)) + le32(UInt32(file.bytes.count)) + le16(UInt16(name.count))
            central += le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let start = UInt32(out.count)
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(files.count)) + le16(UInt16(files.count))
        out += le32(UInt32(central.count)) + le32(start) + le16(0)
        return out
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
}

/// CRC-32 (ISO-HDLC, the ZIP and PNG one), table driven.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
