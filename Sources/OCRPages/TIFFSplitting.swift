import CTIFF
import OCRWire

// The one Swift file that touches libtiff's C API. `TIFFFile` owns one TIFF* and the in-memory
// stream libtiff reads or writes through, and closes the TIFF* in deinit; no pointer leaves this
// file. Leptonica (which links the same libtiff) still decodes the pixels, on the worker.

/// Multipage TIFFs, the way libtiff's `tiffsplit` cuts them but one page at a time: at submission
/// ``directories(_:_:)`` walks the directory chain and checks every strip's place without reading
/// it; at dispatch ``page(_:at:_:)`` copies one directory's tags and raw (still compressed) strips
/// or tiles into a new in-memory TIFF. No pixel is decompressed.
package enum TIFFSplitter {
    /// How to cut each directory of `content`, in order: `.none` for a single-directory TIFF (it
    /// is its page) and for old-style JPEG directories (compression 6, which libtiff cannot
    /// rewrite raw; workers decode the whole file at the page), else the directory's offset.
    /// `INVALID_ARGUMENT` naming the file and page for a broken header or directory chain, a
    /// strip or tile that does not lie inside the file, or strips that add up to more bytes than
    /// the file has: directories sharing their strips would make every page cost the whole blob.
    static func directories(_ content: [UInt8], _ context: PageContext) throws(OCRError) -> [PageCut] {
        let walk = content.withUnsafeBytes { bytes in Result { () throws(OCRError) -> [PageCut] in
            var page = context
            let input = try TIFFFile(reading: bytes, page)
            if input.isLastDirectory { return [.none] }
            var cuts: [PageCut] = []
            var stripBytes: UInt64 = 0
            while true {
                stripBytes += try input.checkStrips(page)
                if stripBytes > UInt64(content.count) {
                    throw TIFFFile.error("checking the strips of directory \(page.filePage)",
                                         "the directories' strips add up to \(stripBytes) bytes in a \(content.count)-byte file (strips shared between pages)", page)
                }
                cuts.append(input.compression == COMPRESSION_OJPEG ? .none : .tiffDirectory(offset: input.directoryOffset))
                if input.isLastDirectory { return cuts }
                page.filePage += 1
                page.pageIndex += 1
                try input.readNextDirectory(page)
            }
        } }
        return try walk.get()
    }

    /// The directory at `offset` of `content` as a single-page TIFF: copied byte for byte
    /// (``TIFFDirectoryCopy``), or by libtiff when that copy cannot make it (libtiff then also
    /// names what is wrong).
    static func page(_ content: [UInt8], at offset: UInt64, _ context: PageContext) throws(OCRError) -> [UInt8] {
        if let copy = TIFFDirectoryCopy.page(content, at: offset) { return copy }
        return try pageByLibTIFF(content, at: offset, context)
    }

    /// The directory at `offset` of `content` as a single-page TIFF, written by libtiff.
    package static func pageByLibTIFF(_ content: [UInt8], at offset: UInt64, _ context: PageContext) throws(OCRError) -> [UInt8] {
        let cut = content.withUnsafeBytes { bytes in Result { () throws(OCRError) -> [UInt8] in
            let input = try TIFFFile(reading: bytes, firstDirectoryAt: offset, context)
            let output = try TIFFFile(writingLike: input, context)
            try input.copyDirectory(to: output, context)
            return try output.finish(context)
        } }
        return try cut.get()
    }

    /// Whether `content` is a TIFF whose first directory is its last (a single page). False when
    /// libtiff cannot read it (the decoder then reports the error).
    package static func isSinglePage(_ content: [UInt8]) -> Bool {
        content.withUnsafeBytes { bytes in
            let probe = try? TIFFFile(reading: bytes, PageContext(file: "", pageIndex: 0, filePage: 1))
            return probe?.isLastDirectory ?? false
        }
    }
}

/// libtiff's process-wide handlers print to stderr. Every handle opened here has its own handlers
/// (below) that record the message instead; the process-wide ones are cleared too, for the few
/// messages libtiff reports without a handle (and for Leptonica's use of the same library).
private let silenceLibTIFF: Void = {
    _ = TIFFSetErrorHandler(nil)
    _ = TIFFSetWarningHandler(nil)
}()

/// The bytes libtiff reads (borrowed, valid while the handle is open) or writes (owned, growing),
/// and the first error libtiff reported on the handle since it was last taken.
private final class MemoryStream {
    let input: UnsafeRawBufferPointer?
    var output: [UInt8] = []
    var position = 0
    var error: String?

    /// Reading: the directory libtiff is told comes first (patched into the header as it is
    /// read), so a cut opens its page's directory directly. Asking libtiff to move there instead
    /// (TIFFSetSubDirectory) walks the whole directory chain for loop checks: a 20,000-page file
    /// cost O(pages) per cut and cut its pages at 220 a second.
    var firstDirectory: UInt64?

    init(input: UnsafeRawBufferPointer?) { self.input = input }

    /// Overwrites the header's first-directory offset in `buffer` (holding file bytes from
    /// `start`) with `firstDirectory`, where the two overlap.
    func patchHeader(_ buffer: UnsafeMutableRawPointer, start: Int, count: Int) {
        guard let firstDirectory, let input, input.count >= 8 else { return }
        let littleEndian = input[0] == 0x49  // "II"
        let big = (littleEndian ? Int(input[2]) | Int(input[3]) << 8 : Int(input[2]) << 8 | Int(input[3])) == 43
        let (field, width) = big ? (8, 8) : (4, 4)
        for i in 0..<width where (start..<start + count).contains(field + i) {
            let shift = littleEndian ? i * 8 : (width - 1 - i) * 8
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: firstDirectory >> UInt64(shift)), toByteOffset: field + i - start, as: UInt8.self)
        }
    }

    var size: Int { input?.count ?? output.count }

    static func from(_ handle: UnsafeMutableRawPointer?) -> MemoryStream {
        Unmanaged<MemoryStream>.fromOpaque(handle!).takeUnretainedValue()
    }
}

// libtiff's I/O callbacks over a MemoryStream (the client data). Read/write return the byte count
// or -1; seek returns the new offset or (toff_t)-1; map returns 1 when it gave the whole buffer.
private let readProc: TIFFReadWriteProc = { handle, buffer, count in
    let s = MemoryStream.from(handle)
    guard let buffer, count >= 0 else { return -1 }
    let start = s.position
    let n = max(0, min(Int(count), s.size - start))
    if n > 0 {
        if let input = s.input {
            buffer.copyMemory(from: input.baseAddress! + start, byteCount: n)
            s.patchHeader(buffer, start: start, count: n)
        } else {
            s.output.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + start, byteCount: n) }
        }
    }
    s.position = start + n
    return tmsize_t(n)
}

private let writeProc: TIFFReadWriteProc = { handle, buffer, count in
    let s = MemoryStream.from(handle)
    guard s.input == nil, let buffer, count >= 0 else { return -1 }
    let count = Int(count), start = s.position, end = start + count
    let source = UnsafeRawBufferPointer(start: buffer, count: count)
    if start == s.output.count {
        s.output.append(contentsOf: source)  // The usual case: appending.
    } else {
        if end > s.output.count { s.output += [UInt8](repeating: 0, count: end - s.output.count) }
        s.output.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[start..<end]).copyMemory(from: source) }
    }
    s.position = end
    return tmsize_t(count)
}

private let seekProc: TIFFSeekProc = { handle, offset, whence in
    let s = MemoryStream.from(handle)
    let base: Int
    switch whence {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = s.position
    case SEEK_END: base = s.size
    default: return UInt64.max
    }
    // Backward relative seeks arrive as two's complement in the unsigned offset.
    let target = base &+ Int(truncatingIfNeeded: offset)
    guard target >= 0 else { return UInt64.max }
    s.position = target
    return UInt64(target)
}

private let closeProc: TIFFCloseProc = { _ in 0 }

private let sizeProc: TIFFSizeProc = { handle in UInt64(MemoryStream.from(handle).size) }

private let mapProc: TIFFMapFileProc = { handle, base, size in
    let s = MemoryStream.from(handle)
    guard let input = s.input, let address = input.baseAddress, let base, let size else { return 0 }
    base.pointee = UnsafeMutableRawPointer(mutating: address)  // libtiff only reads a read-only map.
    size.pointee = UInt64(input.count)
    return 1
}

private let unmapProc: TIFFUnmapFileProc = { _, _, _ in }

/// Records libtiff's message on the handle's stream; returning 1 stops libtiff from also calling
/// the process-wide handler.
private let recordError: TIFFErrorHandlerExtR = { _, user, _, format, arguments in
    guard let user, let format, let arguments else { return 1 }
    let s = MemoryStream.from(user)
    if s.error == nil {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        s.error = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return 1
}

private let ignoreWarning: TIFFErrorHandlerExtR = { _, _, _, _, _ in 1 }

/// One open libtiff handle over memory: reading borrowed bytes, or writing a new TIFF.
private final class TIFFFile {
    private let tif: OpaquePointer
    private let stream: MemoryStream
    private var closed = false

    /// Opens `bytes` (which must outlive this object) and reads its first directory.
    convenience init(reading bytes: UnsafeRawBufferPointer, _ page: PageContext) throws(OCRError) {
        try self.init(mode: "r", stream: MemoryStream(input: bytes), page)  // Reads go through mapProc.
    }

    /// Opens `bytes` and reads the directory at `offset` as if it were the first (the header is
    /// read through readProc, which patches it; the directories through mapProc).
    convenience init(reading bytes: UnsafeRawBufferPointer, firstDirectoryAt offset: UInt64, _ page: PageContext) throws(OCRError) {
        let stream = MemoryStream(input: bytes)
        stream.firstDirectory = offset
        try self.init(mode: "r", stream: stream, page)
    }

    /// A new single-page TIFF with the same byte order and classic/Big TIFF kind as `source`
    /// (raw uncompressed samples wider than 8 bits must keep their byte order).
    convenience init(writingLike source: TIFFFile, _ page: PageContext) throws(OCRError) {
        let mode = (TIFFIsBigEndian(source.tif) != 0 ? "wb" : "wl") + (TIFFIsBigTIFF(source.tif) != 0 ? "8" : "")
        try self.init(mode: mode, stream: MemoryStream(input: nil), page)
    }

    private init(mode: String, stream: MemoryStream, _ page: PageContext) throws(OCRError) {
        _ = silenceLibTIFF
        self.stream = stream
        let handle = Unmanaged.passUnretained(stream).toOpaque()  // `self.stream` keeps it alive.
        let options = TIFFOpenOptionsAlloc()  // NULL only when out of memory; libtiff accepts NULL.
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetErrorHandlerExtR(options, recordError, handle)
        TIFFOpenOptionsSetWarningHandlerExtR(options, ignoreWarning, handle)
        // TIFFClientOpenExt: NULL when the header or (reading) the first directory is unreadable.
        let opened = TIFFClientOpenExt("memory", mode, handle, readProc, writeProc, seekProc, closeProc,
                                       sizeProc, mapProc, unmapProc, options)
        guard let opened else {
            throw Self.error(mode.hasPrefix("r") ? "opening the TIFF" : "creating a TIFF", stream.error, page)
        }
        tif = opened
    }

    deinit { close() }

    private func close() {
        guard !closed else { return }
        closed = true
        TIFFClose(tif)  // Flushes a written file, frees the handle, then calls closeProc.
    }

    // MARK: Errors

    /// The one conversion of a libtiff failure into an error naming the file and page.
    static func error(_ what: String, _ reason: String?, _ page: PageContext) -> OCRError {
        OCRError(.invalidArgument, "\(page.file) page \(page.filePage): \(what) failed: \(reason ?? "libtiff gave no reason") (truncated or corrupt TIFF?)",
                 file: page.file, page: page.pageIndex)
    }

    /// Throws ``error(_:_:_:)`` with libtiff's last message on this handle unless `ok`.
    func check(_ ok: Bool, _ what: @autoclosure () -> String, _ page: PageContext) throws(OCRError) {
        guard !ok else { return }
        let reason = stream.error
        stream.error = nil
        throw Self.error(what(), reason, page)
    }

    // MARK: Directories

    /// Whether the current directory is the last in the chain (its next-directory offset is 0).
    var isLastDirectory: Bool { TIFFLastDirectory(tif) != 0 }

    var compression: Int32 {
        var value: UInt16 = 0
        return get(TIFFTAG_COMPRESSION, &value) ? Int32(value) : COMPRESSION_NONE
    }

    /// Moves to the next directory (1 on success, 0 at the end or on error: called only when
    /// the current one is not the last, so 0 means a broken chain).
    func readNextDirectory(_ page: PageContext) throws(OCRError) {
        try check(TIFFReadDirectory(tif) == 1, "reading TIFF directory \(page.filePage)", page)
    }

    /// The byte offset of the current directory (where `init(reading:firstDirectoryAt:_:)`
    /// finds it again).
    var directoryOffset: UInt64 { TIFFCurrentDirOffset(tif) }

    /// The bytes of the current directory's strips or tiles, each checked to lie inside the file
    /// (offsets and sizes only; nothing is read).
    func checkStrips(_ page: PageContext) throws(OCRError) -> UInt64 {
        let tiled = TIFFIsTiled(tif) != 0
        let unit = tiled ? "tile" : "strip"
        let count = tiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif)
        let size = UInt64(stream.size)
        var total: UInt64 = 0
        for index in 0..<count {
            var failed: Int32 = 0
            let bytes = TIFFGetStrileByteCountWithErr(tif, index, &failed)  // sets failed to 1 on error.
            try check(failed == 0, "reading the size of \(unit) \(index + 1)", page)
            guard bytes > 0 else { continue }  // An absent (sparse) strip.
            let offset = TIFFGetStrileOffsetWithErr(tif, index, &failed)
            try check(failed == 0, "reading the offset of \(unit) \(index + 1)", page)
            guard offset <= size, bytes <= size - offset else {
                throw Self.error("checking \(unit) \(index + 1) of \(count)",
                                 "it claims \(bytes) bytes at offset \(offset), past the end of the \(size)-byte file", page)
            }
            total += bytes
        }
        return total
    }

    /// Whether libtiff knows `tag` by its standard type here. An unknown ("anonymous") tag read
    /// from a file has a different value layout: it is never read.
    private func knows(_ tag: Int32) -> Bool {
        guard let field = TIFFFindField(tif, UInt32(tag), TIFF_NOTYPE) else { return false }
        return TIFFFieldIsAnonymous(field) == 0
    }

    /// Gets a tag's values into `a` (and `b`, `c`), the types TIFFGetField documents for the
    /// tag; false when the tag is not set (TIFFVGetField: 1 if set, else 0).
    private func get<A>(_ tag: Int32, _ a: inout A) -> Bool {
        guard knows(tag) else { return false }
        return withUnsafeMutablePointer(to: &a) { pa in withVaList([pa]) { TIFFVGetField(tif, UInt32(tag), $0) } } == 1
    }

    private func get<A, B>(_ tag: Int32, _ a: inout A, _ b: inout B) -> Bool {
        guard knows(tag) else { return false }
        return withUnsafeMutablePointer(to: &a) { pa in
            withUnsafeMutablePointer(to: &b) { pb in withVaList([pa, pb]) { TIFFVGetField(tif, UInt32(tag), $0) } }
        } == 1
    }

    private func get<A, B, C>(_ tag: Int32, _ a: inout A, _ b: inout B, _ c: inout C) -> Bool {
        guard knows(tag) else { return false }
        return withUnsafeMutablePointer(to: &a) { pa in
            withUnsafeMutablePointer(to: &b) { pb in
                withUnsafeMutablePointer(to: &c) { pc in withVaList([pa, pb, pc]) { TIFFVGetField(tif, UInt32(tag), $0) } }
            }
        } == 1
    }

    /// Sets a tag (values promoted as C varargs: 16-bit as Int32, float as Double); 1 on success.
    private func set(_ tag: Int32, _ values: [CVarArg]) -> Bool {
        withVaList(values) { TIFFVSetField(tif, UInt32(tag), $0) } == 1
    }

    private enum Kind { case u16, u32, float, string, u16Pair, u32Bytes, floats }

    /// The tags a page needs, in tiffsplit's order: compression before the codec's own tags
    /// (predictor, fax options, JPEG tables), which the output only knows once it is set.
    private static let tags: [(Int32, Kind)] = [
        (TIFFTAG_SUBFILETYPE, .u32), (TIFFTAG_TILEWIDTH, .u32), (TIFFTAG_TILELENGTH, .u32),
        (TIFFTAG_IMAGEWIDTH, .u32), (TIFFTAG_IMAGELENGTH, .u32), (TIFFTAG_BITSPERSAMPLE, .u16),
        (TIFFTAG_SAMPLESPERPIXEL, .u16), (TIFFTAG_PLANARCONFIG, .u16), (TIFFTAG_ROWSPERSTRIP, .u32),
        (TIFFTAG_COMPRESSION, .u16), (TIFFTAG_PREDICTOR, .u16), (TIFFTAG_GROUP3OPTIONS, .u32),
        (TIFFTAG_GROUP4OPTIONS, .u32), (TIFFTAG_JPEGTABLES, .u32Bytes),
        (TIFFTAG_PHOTOMETRIC, .u16), (TIFFTAG_THRESHHOLDING, .u16), (TIFFTAG_FILLORDER, .u16),
        (TIFFTAG_ORIENTATION, .u16), (TIFFTAG_SAMPLEFORMAT, .u16), (TIFFTAG_MINSAMPLEVALUE, .u16),
        (TIFFTAG_MAXSAMPLEVALUE, .u16), (TIFFTAG_XRESOLUTION, .float), (TIFFTAG_YRESOLUTION, .float),
        (TIFFTAG_RESOLUTIONUNIT, .u16), (TIFFTAG_XPOSITION, .float), (TIFFTAG_YPOSITION, .float),
        (TIFFTAG_IMAGEDEPTH, .u32), (TIFFTAG_TILEDEPTH, .u32), (TIFFTAG_YCBCRSUBSAMPLING, .u16Pair),
        (TIFFTAG_YCBCRPOSITIONING, .u16), (TIFFTAG_YCBCRCOEFFICIENTS, .floats),
        (TIFFTAG_REFERENCEBLACKWHITE, .floats), (TIFFTAG_ICCPROFILE, .u32Bytes),
        (TIFFTAG_PAGENUMBER, .u16Pair), (TIFFTAG_ARTIST, .string), (TIFFTAG_IMAGEDESCRIPTION, .string),
        (TIFFTAG_MAKE, .string), (TIFFTAG_MODEL, .string), (TIFFTAG_SOFTWARE, .string),
        (TIFFTAG_DATETIME, .string), (TIFFTAG_HOSTCOMPUTER, .string), (TIFFTAG_PAGENAME, .string),
        (TIFFTAG_DOCUMENTNAME, .string),
    ]

    /// Copies the current directory's tags and raw strips or tiles into `output` (a new file) and
    /// writes its directory.
    func copyDirectory(to output: TIFFFile, _ page: PageContext) throws(OCRError) {
        for (tag, kind) in Self.tags {
            let ok: Bool
            switch kind {
            case .u16:
                var v: UInt16 = 0
                guard get(tag, &v) else { continue }
                ok = output.set(tag, [Int32(v)])
            case .u32:
                var v: UInt32 = 0
                guard get(tag, &v) else { continue }
                ok = output.set(tag, [v])
            case .float:
                var v: Float = 0
                guard get(tag, &v) else { continue }
                ok = output.set(tag, [Double(v)])
            case .string:
                var v: UnsafeMutablePointer<CChar>?
                guard get(tag, &v), let v else { continue }
                ok = output.set(tag, [v])
            case .u16Pair:
                var a: UInt16 = 0, b: UInt16 = 0
                guard get(tag, &a, &b) else { continue }
                ok = output.set(tag, [Int32(a), Int32(b)])
            case .u32Bytes:
                var n: UInt32 = 0
                var data: UnsafeMutablePointer<UInt8>?
                guard get(tag, &n, &data), n > 0, let data else { continue }
                ok = output.set(tag, [n, data])
            case .floats:
                var v: UnsafeMutablePointer<Float>?
                guard get(tag, &v), let v else { continue }
                ok = output.set(tag, [v])
            }
            try output.check(ok, "copying TIFF tag \(tag)", page)
        }
        var extraCount: UInt16 = 0
        var extra: UnsafeMutablePointer<UInt16>?
        if get(TIFFTAG_EXTRASAMPLES, &extraCount, &extra), let extra {
            try output.check(output.set(TIFFTAG_EXTRASAMPLES, [Int32(extraCount), extra]), "copying TIFF extra samples", page)
        }
        var red: UnsafeMutablePointer<UInt16>?, green: UnsafeMutablePointer<UInt16>?, blue: UnsafeMutablePointer<UInt16>?
        if get(TIFFTAG_COLORMAP, &red, &green, &blue),
           let red, let green, let blue {
            try output.check(output.set(TIFFTAG_COLORMAP, [red, green, blue]), "copying the TIFF colour map", page)
        }
        try copyRawData(to: output, page)
        try output.check(TIFFWriteDirectory(output.tif) == 1, "writing the page's TIFF directory", page)  // 1 ok, 0 error.
    }

    /// Copies every strip (or tile) as stored, still compressed.
    private func copyRawData(to output: TIFFFile, _ page: PageContext) throws(OCRError) {
        let tiled = TIFFIsTiled(tif) != 0
        let unit = tiled ? "tile" : "strip"
        let count = tiled ? TIFFNumberOfTiles(tif) : TIFFNumberOfStrips(tif)
        var buffer: [UInt8] = []
        for index in 0..<count {
            var failed: Int32 = 0
            let size64 = TIFFGetStrileByteCountWithErr(tif, index, &failed)  // sets failed to 1 on error.
            try check(failed == 0, "reading the size of \(unit) \(index + 1)", page)
            guard size64 <= UInt64(stream.size) else {
                throw Self.error("reading \(unit) \(index + 1)", "it claims \(size64) bytes, more than the whole file (\(stream.size))", page)
            }
            let size = Int(size64)
            guard size > 0 else { continue }  // An absent (sparse) strip stays absent.
            if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
            // TIFFReadRaw*: bytes read, or -1 (also when the file ends before the strip does).
            let read = buffer.withUnsafeMutableBytes {
                tiled ? TIFFReadRawTile(tif, index, $0.baseAddress, tmsize_t(size)) : TIFFReadRawStrip(tif, index, $0.baseAddress, tmsize_t(size))
            }
            try check(read == size, "reading \(unit) \(index + 1) of \(count)", page)
            // TIFFWriteRaw*: bytes written, or -1.
            let written = buffer.withUnsafeMutableBytes {
                tiled ? TIFFWriteRawTile(output.tif, index, $0.baseAddress, tmsize_t(size)) : TIFFWriteRawStrip(output.tif, index, $0.baseAddress, tmsize_t(size))
            }
            try output.check(written == size, "writing \(unit) \(index + 1) of \(count)", page)
        }
    }

    /// Closes a written file and returns its bytes.
    func finish(_ page: PageContext) throws(OCRError) -> [UInt8] {
        try check(TIFFFlush(tif) == 1, "writing the page's TIFF", page)  // 1 ok, 0 error.
        close()
        return stream.output
    }
}
