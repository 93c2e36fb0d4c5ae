import Foundation
import OCRPages
import Testing

/// A JPEG's EXIF orientation, read from its bytes (the parser sees hostile uploads).
@Suite struct ExifOrientationTests {
    /// A JPEG's first segments: SOI, a JFIF APP0, an APP1 Exif whose IFD0 holds `entries`
    /// (tag, type, value) in the given byte order, then SOS.
    static func jpeg(little: Bool, entries: [(tag: Int, type: Int, value: Int)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        var tiff: [UInt8] = little ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += u16(42) + u32(8) + u16(entries.count)
        for e in entries { tiff += u16(e.tag) + u16(e.type) + u32(1) + u16(e.value) + [0, 0] }
        tiff += u32(0)
        let app1 = Array("Exif\0\0".utf8) + tiff
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        return [0xFF, 0xD8] + app0 + [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
            + [0xFF, 0xDA, 0x00, 0x02]
    }

    @Test(arguments: [true, false])
    func readsTheOrientationInEitherByteOrder(little: Bool) {
        for (value, turns) in [(1, 0), (3, 2), (6, 1), (8, 3), (2, 0), (5, 0)] {
            let bytes = Self.jpeg(little: little, entries: [(0x010F, 2, 0), (0x0112, 3, value)])
            #expect(ExifOrientation.orientation(jpeg: bytes) == value)
            #expect(ExifOrientation.quarterTurns(jpeg: bytes) == turns, "orientation \(value)")
        }
    }

    @Test func hostileOrMissingExifMeansUpright() {
        let good = Self.jpeg(little: true, entries: [(0x0112, 3, 6)])
        #expect(ExifOrientation.quarterTurns(jpeg: good) == 1)
        // Every truncation of it, and bytes flipped in its header, give an answer without crashing.
        for n in 0..<good.count { _ = ExifOrientation.orientation(jpeg: Array(good.prefix(n))) }
        for i in 2..<good.count {
            var bad = good
            bad[i] ^= 0xFF
            _ = ExifOrientation.orientation(jpeg: bad)
        }
        #expect(ExifOrientation.orientation(jpeg: Self.jpeg(little: true, entries: [(0x0112, 4, 6)])) == nil, "not a SHORT")
        #expect(ExifOrientation.orientation(jpeg: Self.jpeg(little: false, entries: [(0x0112, 3, 9)])) == nil, "out of range")
        #expect(ExifOrientation.orientation(jpeg: Self.jpeg(little: true, entries: [])) == nil)
        #expect(ExifOrientation.orientation(jpeg: Array("not a jpeg".utf8)) == nil)
        // A segment length running past the end.
        #expect(ExifOrientation.orientation(jpeg: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45]) == nil)
    }
}
