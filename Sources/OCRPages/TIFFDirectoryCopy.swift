import CTIFF

/// Cuts one directory of a TIFF into a single-page TIFF by copying the directory's entries and
/// strips byte for byte, without libtiff: the coordinator cuts every page it dispatches, and
/// libtiff's open, directory read and writer cost about 150 us a page (a third of a core at
/// 7,600 tiny pages/s), this about a tenth of that. It copies the same tags as libtiff's path
/// (``TIFFSplitter``), in the source's byte order and kind (classic or BigTIFF), so the values
/// need no conversion. Anything it does not expect (a tag type it does not know, strips without
/// byte counts, a value outside the file) gives nil, and the caller cuts with libtiff, which
/// also writes the error. Untrusted input: every offset is checked before it is read.
package enum TIFFDirectoryCopy {
    /// The tags a page keeps, besides its strip or tile offsets and byte counts (rewritten):
    /// exactly those ``TIFFSplitter``'s libtiff path copies. None of them holds a file offset.
    private static let keptTags: Set<UInt16> = Set([
        TIFFTAG_SUBFILETYPE, TIFFTAG_TILEWIDTH, TIFFTAG_TILELENGTH, TIFFTAG_IMAGEWIDTH, TIFFTAG_IMAGELENGTH,
        TIFFTAG_BITSPERSAMPLE, TIFFTAG_SAMPLESPERPIXEL, TIFFTAG_PLANARCONFIG, TIFFTAG_ROWSPERSTRIP,
        TIFFTAG_COMPRESSION, TIFFTAG_PREDICTOR, TIFFTAG_GROUP3OPTIONS, TIFFTAG_GROUP4OPTIONS, TIFFTAG_JPEGTABLES,
        TIFFTAG_PHOTOMETRIC, TIFFTAG_THRESHHOLDING, TIFFTAG_FILLORDER, TIFFTAG_ORIENTATION, TIFFTAG_SAMPLEFORMAT,
        TIFFTAG_MINSAMPLEVALUE, TIFFTAG_MAXSAMPLEVALUE, TIFFTAG_XRESOLUTION, TIFFTAG_YRESOLUTION,
        TIFFTAG_RESOLUTIONUNIT, TIFFTAG_XPOSITION, TIFFTAG_YPOSITION, TIFFTAG_IMAGEDEPTH, TIFFTAG_TILEDEPTH,
        TIFFTAG_YCBCRSUBSAMPLING, TIFFTAG_YCBCRPOSITIONING, TIFFTAG_YCBCRCOEFFICIENTS, TIFFTAG_REFERENCEBLACKWHITE,
        TIFFTAG_ICCPROFILE, TIFFTAG_PAGENUMBER, TIFFTAG_ARTIST, TIFFTAG_IMAGEDESCRIPTION, TIFFTAG_MAKE,
        TIFFTAG_MODEL, TIFFTAG_SOFTWARE, TIFFTAG_DATETIME, TIFFTAG_HOSTCOMPUTER, TIFFTAG_PAGENAME,
        TIFFTAG_DOCUMENTNAME, TIFFTAG_EXTRASAMPLES, TIFFTAG_COLORMAP,
    ].map { UInt16($0) })

    /// Bytes per value of each TIFF field type (TIFF 6.0 and BigTIFF), or nil for a type this
    /// copy does not know.
    private static func width(ofType type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12, 16, 17, 18: 8  // RATIONAL, SRATIONAL, DOUBLE, LONG8, SLONG8, IFD8
        default: nil
        }
    }

    /// One entry as found: its tag, type and count, and its value bytes (in the file's order).
    private struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt64
        var value: ArraySlice<UInt8>
    }

    /// One directory as parsed: the kept entries, its strips' or tiles' offsets and byte counts
    /// (each checked to lie inside the file) and their total.
    private struct Directory {
        var reader: Reader
        var kept: [Entry]
        var offsets: [UInt64]
        var byteCounts: [UInt64]
        /// Whether the offsets found are tile offsets.
        var tiles: Bool
        var totalBytes: UInt64
    }

    /// The bytes of the strips or tiles of the directory at `offset` of `content`: what the page
    /// takes in the file, compressed. Nil where ``page(_:at:maxBytes:)`` could not copy it.
    package static func stripBytes(_ content: [UInt8], at offset: UInt64) -> UInt64? {
        directory(content, at: offset)?.totalBytes
    }

    /// The directory at `offset` of `content` (checked by the directory walk at submission) as a
    /// single-page TIFF, or nil when this copy cannot make it or its strips or tiles add up to
    /// more than `maxBytes`.
    package static func page(_ content: [UInt8], at offset: UInt64, maxBytes: UInt64 = .max) -> [UInt8]? {
        guard let found = directory(content, at: offset), found.totalBytes <= maxBytes else { return nil }
        let (reader, offsets, byteCounts, tiled) = (found.reader, found.offsets, found.byteCounts, found.tiles)
        var kept = found.kept
        let big = reader.big, inline = big ? 8 : 4

        // Layout: header, strips, out-of-line values, then the directory (each on an even offset).
        var writer = Writer(littleEndian: reader.littleEndian, big: big)
        writer.header()
        var newOffsets: [UInt64] = []
        for (place, size) in zip(offsets, byteCounts) {
            guard size > 0 else { newOffsets.append(0); continue }  // A sparse strip stays absent.
            newOffsets.append(UInt64(writer.bytes.count))
            writer.bytes += content[Int(place)..<Int(place + size)]
            writer.align()
        }
        let numberType: UInt16 = big ? 16 : 4  // LONG8 or LONG
        kept.append(Entry(tag: UInt16(tiled ? TIFFTAG_TILEOFFSETS : TIFFTAG_STRIPOFFSETS), type: numberType,
                          count: UInt64(newOffsets.count), value: ArraySlice(writer.encode(newOffsets))))
        kept.append(Entry(tag: UInt16(tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS), type: numberType,
                          count: UInt64(byteCounts.count), value: ArraySlice(writer.encode(byteCounts))))
        kept.sort { $0.tag < $1.tag }  // Directory entries are sorted by tag.

        var fields: [[UInt8]] = []  // Each entry's value field: the value itself, or where it is.
        for entry in kept {
            if entry.value.count <= inline {
                fields.append(Array(entry.value) + [UInt8](repeating: 0, count: inline - entry.value.count))
            } else {
                fields.append(writer.encode([UInt64(writer.bytes.count)], width: inline))
                writer.bytes += entry.value
                writer.align()
            }
        }
        let directory = UInt64(writer.bytes.count)
        writer.put(UInt64(kept.count), width: big ? 8 : 2)
        for (entry, field) in zip(kept, fields) {
            writer.put(UInt64(entry.tag), width: 2)
            writer.put(UInt64(entry.type), width: 2)
            writer.put(entry.count, width: big ? 8 : 4)
            writer.bytes += field
        }
        writer.put(0, width: inline)  // No next directory.
        writer.patchFirstDirectory(directory)
        if !big, writer.bytes.count > Int(UInt32.max) { return nil }
        return writer.bytes
    }

    /// The directory at `offset` of `content` parsed, or nil for anything this copy does not
    /// expect (untrusted input: every offset is checked before it is read).
    private static func directory(_ content: [UInt8], at offset: UInt64) -> Directory? {
        guard content.count >= 8, offset < UInt64(content.count) else { return nil }
        var reader = Reader(bytes: content, littleEndian: content[0] == 0x49)
        guard let version = reader.u16(2) else { return nil }
        let big: Bool
        switch version {
        case 42: big = false
        case 43: big = true
        default: return nil
        }
        reader.big = big
        let start = Int(offset)
        guard let count = big ? reader.u64(start) : reader.u16(start).map(UInt64.init) else { return nil }
        let entrySize = big ? 20 : 12, inline = big ? 8 : 4
        let first = start + (big ? 8 : 2)
        guard count > 0, count <= 4096, first + Int(count) * entrySize <= content.count else { return nil }

        var kept: [Entry] = []
        var offsets: [UInt64]?, byteCounts: [UInt64]?
        var tiles: Bool?  // Whether the offsets found are tile offsets.
        for i in 0..<Int(count) {
            let at = first + i * entrySize
            guard let tag = reader.u16(at), let type = reader.u16(at + 2),
                  let n = reader.word(at + 4) else { return nil }
            let isStripTag = switch Int32(tag) {
            case TIFFTAG_STRIPOFFSETS, TIFFTAG_TILEOFFSETS, TIFFTAG_STRIPBYTECOUNTS, TIFFTAG_TILEBYTECOUNTS: true
            default: false
            }
            guard isStripTag || keptTags.contains(tag) else { continue }
            guard let unit = width(ofType: type), n <= UInt64(content.count) else { return nil }
            let size = Int(n) * unit
            let valueField = at + (big ? 12 : 8)
            let value: ArraySlice<UInt8>
            if size <= inline {
                value = content[valueField..<valueField + size]
            } else {
                guard let place = reader.word(valueField),
                      place <= UInt64(content.count), UInt64(size) <= UInt64(content.count) - place else { return nil }
                value = content[Int(place)..<Int(place) + size]
            }
            let entry = Entry(tag: tag, type: type, count: n, value: value)
            if isStripTag {
                guard let numbers = reader.integers(entry) else { return nil }
                if tag == TIFFTAG_STRIPOFFSETS || tag == TIFFTAG_TILEOFFSETS {
                    guard offsets == nil else { return nil }
                    offsets = numbers
                    tiles = tag == TIFFTAG_TILEOFFSETS
                } else {
                    guard byteCounts == nil else { return nil }
                    byteCounts = numbers
                }
            } else {
                kept.append(entry)
            }
        }
        guard let offsets, let byteCounts, let tiles, !offsets.isEmpty, offsets.count == byteCounts.count else { return nil }
        var total: UInt64 = 0
        for (place, size) in zip(offsets, byteCounts) where size > 0 {
            guard place <= UInt64(content.count), size <= UInt64(content.count) - place else { return nil }
            total += size  // At most offsets.count x the file's size: no overflow.
        }
        guard tiles == kept.contains(where: { $0.tag == TIFFTAG_TILEWIDTH }) else { return nil }  // Tile offsets without a tile size, or the reverse.
        return Directory(reader: reader, kept: kept, offsets: offsets, byteCounts: byteCounts, tiles: tiles, totalBytes: total)
    }

    /// Bounds-checked reads of integers in the file's byte order.
    private struct Reader {
        let bytes: [UInt8]
        let littleEndian: Bool
        /// BigTIFF: counts and offsets in entries are 8 bytes wide, not 4.
        var big = false

        func unsigned(_ at: Int, _ width: Int) -> UInt64? {
            guard at >= 0, at + width <= bytes.count else { return nil }
            var value: UInt64 = 0
            for i in 0..<width {
                let byte = UInt64(bytes[at + (littleEndian ? width - 1 - i : i)])
                value = value << 8 | byte
            }
            return value
        }

        func u16(_ at: Int) -> UInt16? { unsigned(at, 2).map { UInt16($0) } }
        func u32(_ at: Int) -> UInt32? { unsigned(at, 4).map { UInt32($0) } }
        func u64(_ at: Int) -> UInt64? { unsigned(at, 8) }

        /// An entry's count or value offset: 4 bytes, 8 in a BigTIFF.
        func word(_ at: Int) -> UInt64? { unsigned(at, big ? 8 : 4) }

        /// The values of a SHORT, LONG or LONG8 entry (strip offsets and byte counts); nil for
        /// another type.
        func integers(_ entry: Entry) -> [UInt64]? {
            let width: Int
            switch entry.type {
            case 3: width = 2
            case 4, 13: width = 4
            case 16, 18: width = 8
            default: return nil
            }
            let start = entry.value.startIndex
            return (0..<Int(entry.count)).map { unsigned(start + $0 * width, width)! }
        }
    }

    /// The new file, in the source's byte order and kind.
    private struct Writer {
        let littleEndian: Bool
        let big: Bool
        var bytes: [UInt8] = []

        func encode(_ values: [UInt64], width: Int? = nil) -> [UInt8] {
            let width = width ?? (big ? 8 : 4)
            var out: [UInt8] = []
            out.reserveCapacity(values.count * width)
            for value in values {
                for i in 0..<width {
                    let shift = (littleEndian ? i : width - 1 - i) * 8
                    out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
                }
            }
            return out
        }

        mutating func put(_ value: UInt64, width: Int) { bytes += encode([value], width: width) }

        /// "II" or "MM", the version, and (BigTIFF) the offset size; the first directory's offset
        /// is patched in last.
        mutating func header() {
            bytes = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
            put(big ? 43 : 42, width: 2)
            if big {
                put(8, width: 2)
                put(0, width: 2)
            }
            put(0, width: big ? 8 : 4)
        }

        mutating func patchFirstDirectory(_ offset: UInt64) {
            let field = big ? 8 : 4
            bytes.replaceSubrange(field..<field + (big ? 8 : 4), with: encode([offset], width: big ? 8 : 4))
        }

        /// Values and directories start on a word (even) boundary.
        mutating func align() { if bytes.count % 2 == 1 { bytes.append(0) } }
    }
}
