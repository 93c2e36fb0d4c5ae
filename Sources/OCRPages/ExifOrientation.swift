/// The EXIF orientation of a JPEG (tag 0x0112 of IFD0 in its APP1 "Exif" segment): how a phone
/// turned the picture it stored. A phone held upright usually stores the sensor's landscape
/// pixels with orientation 6 (show them turned 90 degrees clockwise), so a page photographed
/// upright arrives lying on its side unless this is honoured.
///
/// Every offset is checked against the data: a hostile file gives nil, never a crash.
package enum ExifOrientation {
    /// Clockwise quarter turns that show the stored pixels as the camera meant (0...3): 0 for
    /// orientation 1, absent, unreadable or mirrored (2, 4, 5, 7: not a camera's); 2 for 3; 1
    /// for 6; 3 for 8.
    package static func quarterTurns(jpeg bytes: [UInt8]) -> Int {
        switch orientation(jpeg: bytes) {
        case 3: 2
        case 6: 1
        case 8: 3
        default: 0
        }
    }

    /// The orientation value (1...8), or nil.
    package static func orientation(jpeg bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        // Segments: FF marker, 2-byte big-endian length (including itself), payload.
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // No length.
            if marker == 0xDA || marker == 0xD9 { return nil }  // Start of scan, end of image: no EXIF before them.
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            let payload = (i + 4)..<(i + 2 + length)
            if marker == 0xE1, payload.count >= 6, Array(bytes[payload.lowerBound..<payload.lowerBound + 6]) == Array("Exif\0\0".utf8) {
                return tiffOrientation(Array(bytes[(payload.lowerBound + 6)..<payload.upperBound]))
            }
            i += 2 + length
        }
        return nil
    }

    /// Tag 0x0112 of IFD0 of a TIFF structure (EXIF's).
    static func tiffOrientation(_ t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let o = ifd + 2 + entry * 12
            guard let tag = u16(o) else { return nil }
            // Type 3 (SHORT), one value, stored in the first two bytes of the value field.
            if tag == 0x0112 { return u16(o + 2) == 3 ? u16(o + 8).flatMap { (1...8).contains($0) ? $0 : nil } : nil }
        }
        return nil
    }
}
