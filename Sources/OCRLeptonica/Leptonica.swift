import CLeptonica
import OCRPageModel
import OCRWire

// The one Swift file that touches Leptonica's C API. `Pix` owns one PIX and frees it in deinit;
// no pointer leaves this module except to OCREngine's Tesseract wrapper, which hands it to
// Tesseract and takes the thresholded image back.

/// Leptonica prints every error to stderr; bad input is reported through OCRError instead.
private let silenceLeptonica: Void = { _ = setMsgSeverity(Int32(L_SEVERITY_NONE)) }()

/// What a header says about an image, read without decoding its pixels.
package struct ImageHeader: Equatable {
    package var width: Int
    package var height: Int
    package var bitsPerSample: Int
    package var samplesPerPixel: Int
    package var leptonicaFormat: Int32
    package var pixels: UInt64 { UInt64(max(width, 0)) * UInt64(max(height, 0)) }
}

/// An owned Leptonica image.
package final class Pix {
    package let raw: UnsafeMutablePointer<PIX>

    /// Takes ownership of `raw`.
    package init(owning raw: UnsafeMutablePointer<PIX>) { self.raw = raw }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = raw
        pixDestroy(&p)  // Frees the pixels (or drops a reference); sets p to NULL.
    }

    package var width: Int { Int(pixGetWidth(raw)) }
    package var height: Int { Int(pixGetHeight(raw)) }
    package var depth: Int { Int(pixGetDepth(raw)) }
    /// Horizontal resolution from the file (0 when it does not say).
    package var xResolution: Int { Int(pixGetXRes(raw)) }
    /// Vertical resolution from the file (0 when it does not say; a fax's differs from its x).
    package var yResolution: Int { Int(pixGetYRes(raw)) }

    package func setResolution(_ dpi: Int) { _ = pixSetResolution(raw, Int32(dpi), Int32(dpi)) }  // 0 ok, 1 on NULL pix.

    // MARK: Reading

    /// Format and size from the header of an encoded image (first page of a TIFF).
    package static func header(_ bytes: [UInt8]) throws(OCRError) -> ImageHeader {
        _ = silenceLeptonica
        var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        // pixReadHeaderMem: 0 on success, 1 when the data is not a readable header.
        let rc = bytes.withUnsafeBufferPointer { pixReadHeaderMem($0.baseAddress, $0.count, &format, &w, &h, &bps, &spp, &cmap) }
        try CheckC.zero(rc, "reading the image header", code: .invalidArgument)
        return ImageHeader(width: Int(w), height: Int(h), bitsPerSample: Int(bps), samplesPerPixel: Int(spp), leptonicaFormat: format)
    }

    /// Size from the header of TIFF directory `index` (0-based).
    package static func tiffHeader(_ bytes: [UInt8], index: Int) throws(OCRError) -> ImageHeader {
        _ = silenceLeptonica
        var w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, res: Int32 = 0, cmap: Int32 = 0, format: Int32 = 0
        // readHeaderMemTiff: 0 on success, 1 when directory n does not exist or cannot be read.
        let rc = bytes.withUnsafeBufferPointer {
            readHeaderMemTiff($0.baseAddress, $0.count, Int32(index), &w, &h, &bps, &spp, &res, &cmap, &format)
        }
        try CheckC.zero(rc, "reading TIFF directory \(index + 1)", code: .invalidArgument)
        return ImageHeader(width: Int(w), height: Int(h), bitsPerSample: Int(bps), samplesPerPixel: Int(spp), leptonicaFormat: format)
    }

    /// Decodes a whole single image (any Leptonica format).
    package static func decode(_ bytes: [UInt8]) throws(OCRError) -> Pix {
        _ = silenceLeptonica
        // pixReadMem: NULL when the data is corrupt, truncated or of an unknown format.
        let p = bytes.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
        return Pix(owning: try CheckC.nonNull(p, "decoding the image", code: .invalidArgument))
    }

    /// Decodes TIFF directory `index` (0-based) only.
    package static func decodeTIFF(_ bytes: [UInt8], index: Int) throws(OCRError) -> Pix {
        _ = silenceLeptonica
        // pixReadMemTiff: NULL when the directory is missing or its strips are corrupt.
        let p = bytes.withUnsafeBufferPointer { pixReadMemTiff($0.baseAddress, $0.count, Int32(index)) }
        return Pix(owning: try CheckC.nonNull(p, "decoding TIFF page \(index + 1)", code: .invalidArgument))
    }

    /// Encodes as PNG (tests and debugging).
    package func png() throws(OCRError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        try CheckC.zero(pixWriteMem(&data, &size, raw, Int32(IFF_PNG)), "encoding PNG")  // 0 ok, 1 error.
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    // MARK: Transforms (each returns a new image)

    /// Rotates by `quads` quarter turns clockwise.
    package func rotatedOrth(_ quads: Int) throws(OCRError) -> Pix {
        Pix(owning: try CheckC.nonNull(pixRotateOrth(raw, Int32(quads)), "rotating the page"))  // NULL on error.
    }

    /// Rotates by `degrees` (positive: clockwise, Leptonica's convention) about the centre,
    /// keeping the size and bringing in white.
    package func rotated(degrees: Double) throws(OCRError) -> Pix {
        let radians = Float(degrees * .pi / 180)
        let p = pixRotate(raw, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0)
        return Pix(owning: try CheckC.nonNull(p, "rotating the page"))  // NULL on error.
    }

    /// The skew angle in degrees (positive: the text must turn clockwise to be level... see
    /// Leptonica's pixFindSkew) and a confidence; `nil` when Leptonica finds no reliable angle.
    package func findSkew() throws(OCRError) -> (degrees: Double, confidence: Double)? {
        let binary = try toBinary(threshold: 130)
        var angle: Float = 0, conf: Float = 0
        // pixFindSkew: 0 on success (angle 0, conf 0 if nothing found), 1 on error.
        guard pixFindSkew(binary.raw, &angle, &conf) == 0, conf > 0 else { return nil }
        return (Double(angle), Double(conf))
    }

    /// The skew of the text in `rect` of this 1 bpp image, searched within plus or minus
    /// `range` degrees (Leptonica's sweep and binary search at full resolution): positive when
    /// the lines rise to the right. nil when Leptonica finds no angle with at least
    /// `minimumConfidence` (its ratio of the best alignment score to the worst).
    package func skew(in rect: RawRect, range: Double, minimumConfidence: Double) throws(OCRError) -> Double? {
        let band = try cropped(rect)
        var angle: Float = 0, conf: Float = 0
        // 0 on success (conf 0 when there is too little to measure), 1 on error.
        guard pixFindSkewSweepAndSearch(band.raw, &angle, &conf, 1, 1, Float(range), 1, 0.01) == 0,
              Double(conf) >= minimumConfidence else { return nil }
        return Double(angle)
    }

    /// This 1 bpp image without its dark components wider than `maxWidth` or taller than
    /// `maxHeight` (a photo's dark surround, pictures, long rules).
    package func withoutComponents(widerThan maxWidth: Int, orTallerThan maxHeight: Int) throws(OCRError) -> Pix {
        // Kept: both sides at most the limits. NULL on error.
        Pix(owning: try CheckC.nonNull(pixSelectBySize(raw, Int32(maxWidth), Int32(maxHeight), 8, Int32(L_SELECT_IF_BOTH), Int32(L_SELECT_IF_LTE), nil),
                                       "selecting components by size"))
    }

    /// The median gray level, sampled every fourth pixel each way: a page's paper, since text is
    /// the minority of its pixels.
    package func paperLevel() throws(OCRError) -> UInt8 {
        let gray = try gray8()
        var value: UInt32 = 0
        try CheckC.zero(pixGetRankValue(gray.raw, 4, 0.5, &value), "measuring the paper's gray")  // 0 ok.
        return UInt8(truncatingIfNeeded: value)
    }

    /// This page in 8 bpp gray with every column moved vertically by `field`: the result's
    /// pixel (x, y) is this image's (x, y - d(x, y)), read linearly between the two nearest
    /// rows; points from outside the image are `fill`.
    package func shiftedVertically(by field: VerticalDisparity, fill: UInt8) throws(OCRError) -> Pix {
        let gray = try gray8()
        let (w, h) = (gray.width, gray.height)
        let out = Pix(owning: try CheckC.nonNull(pixCreate(Int32(w), Int32(h), 8), "making the straightened page"))  // NULL on error.
        guard let source = pixGetData(gray.raw), let target = pixGetData(out.raw) else { throw OCRError(.internal, "page without pixels") }
        let (sourceWords, targetWords) = (Int(pixGetWpl(gray.raw)), Int(pixGetWpl(out.raw)))
        // Leptonica keeps 8 bpp pixels in 32-bit words, the leftmost pixel in the most
        // significant byte (GET_DATA_BYTE): byte x of a row is at index x ^ 3 on a little-endian host.
        let sourceBytes = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
        let targetBytes = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt8.self)
        func byteIndex(_ x: Int) -> Int { x ^ 3 }
        defer { withExtendedLifetime(gray) {} }  // Its pixels are read through `sourceBytes` until here.
        for y in 0..<h {
            let row = targetBytes + y * targetWords * 4
            for x in 0..<w {
                let sy = Double(y) - field.value(Double(x), Double(y))
                let y0 = Int(sy.rounded(.down)), t = sy - Double(y0)
                func at(_ yy: Int) -> Double {
                    yy >= 0 && yy < h ? Double(sourceBytes[yy * sourceWords * 4 + byteIndex(x)]) : Double(fill)
                }
                row[byteIndex(x)] = UInt8(max(0, min(255, (at(y0) * (1 - t) + at(y0 + 1) * t).rounded())))
            }
        }
        return out
    }

    /// Global threshold to 1 bpp (pixels darker than `threshold` become black).
    package func toBinary(threshold: Int) throws(OCRError) -> Pix {
        if depth == 1 { return Pix(owning: pixClone(raw)) }
        return Pix(owning: try CheckC.nonNull(pixConvertTo1(raw, Int32(threshold)), "binarising"))  // NULL on error.
    }

    /// For each column of `rect` (clipped to the image) of this 1 bpp image, whether any pixel
    /// of the column inside `rect` is set (ink, in Tesseract's thresholded image).
    package func inkedColumns(in rect: RawRect) throws(OCRError) -> [Bool] {
        guard depth == 1 else { throw OCRError(.internal, "inkedColumns needs a 1 bpp image") }
        let (left, right) = (max(0, rect.left), min(width, rect.right))
        let (top, bottom) = (max(0, rect.top), min(height, rect.bottom))
        guard right > left, bottom > top, let data = pixGetData(raw) else { return [] }
        let wordsPerLine = Int(pixGetWpl(raw))
        // 1 bpp rows are 32-bit words, the leftmost pixel in the most significant bit: the rows
        // are OR-ed word by word, then each column's bit is read once.
        let (first, last) = (left >> 5, (right - 1) >> 5)
        var ink = [UInt32](repeating: 0, count: last - first + 1)
        for y in top..<bottom {
            let row = data + y * wordsPerLine
            for w in first...last { ink[w - first] |= row[w] }
        }
        return withExtendedLifetime(self) {
            (left..<right).map { x in (ink[(x >> 5) - first] >> (31 - UInt32(x & 31))) & 1 != 0 }
        }
    }

    /// The share of the pixels of `rect` (clipped to the image) that are set in this 1 bpp image.
    package func inkShare(in rect: RawRect) throws(OCRError) -> Double {
        guard depth == 1 else { throw OCRError(.internal, "inkShare needs a 1 bpp image") }
        let (left, right) = (max(0, rect.left), min(width, rect.right))
        let (top, bottom) = (max(0, rect.top), min(height, rect.bottom))
        guard right > left, bottom > top else { return 0 }
        let box = try CheckC.nonNull(boxCreate(Int32(left), Int32(top), Int32(right - left), Int32(bottom - top)), "making a box")  // NULL if w/h < 1.
        var b: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&b) }
        var count: Int32 = 0
        guard pixCountPixelsInRect(raw, box, &count, nil) == 0 else { throw OCRError(.internal, "counting pixels failed") }  // 0 ok.
        return Double(count) / Double((right - left) * (bottom - top))
    }

    /// 8 bpp grayscale (colour maps removed).
    package func toGray() throws(OCRError) -> Pix {
        Pix(owning: try CheckC.nonNull(pixConvertTo8(raw, 0), "converting to grayscale"))  // NULL on error.
    }

    /// This image when it already is 8 bpp gray without a colour map, else ``toGray()``.
    private func gray8() throws(OCRError) -> Pix {
        depth == 8 && pixGetColormap(raw) == nil ? self : try toGray()
    }

    /// Scaled by `factor` in both directions (Leptonica picks a smoothing method by depth).
    package func scaled(_ factor: Double) throws(OCRError) -> Pix {
        Pix(owning: try CheckC.nonNull(pixScale(raw, Float(factor), Float(factor)), "scaling the page"))  // NULL on error.
    }

    /// The boxes of the dark (8-connected) components of this image thresholded at mid-gray.
    package func componentBoxes() throws(OCRError) -> [RawRect] {
        try toBinary(threshold: 128).connectedComponentBoxes()
    }

    /// The boxes of the 8-connected components of this 1 bpp image, each coordinate times
    /// `scale` (for an image reduced by that factor).
    private func connectedComponentBoxes(scale: Int = 1) throws(OCRError) -> [RawRect] {
        var boxes: UnsafeMutablePointer<BOXA>? = try CheckC.nonNull(pixConnCompBB(raw, 8), "finding connected components")  // NULL on error.
        defer { boxaDestroy(&boxes) }
        var rects: [RawRect] = []
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            if boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h) == 0 {  // 0 ok.
                rects.append(RawRect(left: Int(x) * scale, top: Int(y) * scale, right: Int(x + w) * scale, bottom: Int(y + h) * scale))
            }
        }
        return withExtendedLifetime(self) { rects }
    }

    /// The ruling lines of this image: dark strokes at least `minimumLength` long and at most
    /// `maximumThickness` thick, horizontal ones kept by an opening with a `minimumLength` x 1
    /// brick and vertical ones by a 1 x `minimumLength` brick (Leptonica's morphology: text
    /// strokes are shorter and go, rules stay), then boxed as connected components. Ink is
    /// what is darker than mid-gray; rules at least three times `minimumLength` long are also
    /// looked for in what is darker than the paper by a tenth where mid-gray shows (nearly)
    /// nothing around them (light-gray hairlines; there a blurred word's letters run together,
    /// so shorter strokes, and strokes over dark letters, are not rules), and so are the
    /// top and bottom edges of shaded bands that rules run down through (a ruled table's rows
    /// told apart by shading), which become horizontal rules. Found at half the resolution (a
    /// 2x2 block with any ink is ink, so a one-pixel rule stays), a quarter of the work; the
    /// boxes are in this image's pixels.
    package func rulingLines(minimumLength: Int, maximumThickness: Int) throws(OCRError) -> (horizontal: [RawRect], vertical: [RawRect]) {
        // Too small to hold a rule, and to be halved (Leptonica refuses a 1-pixel image).
        guard width >= 4, height >= 4 else { return ([], []) }
        let length = max(2, minimumLength / 2)
        // Gray once (a colour page's conversion is most of the work), thresholded twice.
        let gray = depth == 1 ? self : try gray8()
        func reduced(_ threshold: Int) throws(OCRError) -> Pix {
            let full = try gray.toBinary(threshold: threshold)
            // pixReduceRankBinary2: a new image, or NULL on error.
            return Pix(owning: try withExtendedLifetime(full) { () throws(OCRError) in
                try CheckC.nonNull(pixReduceRankBinary2(full.raw, 1, nil), "reducing the page")
            })
        }
        func opened(_ binary: Pix, across: Bool) throws(OCRError) -> Pix {
            // pixOpenBrick: a new image, or NULL on error.
            Pix(owning: try CheckC.nonNull(pixOpenBrick(nil, binary.raw, Int32(across ? length : 1), Int32(across ? 1 : length)), "finding ruling lines"))
        }
        func thickness(_ box: RawRect, across: Bool) -> Int { across ? box.bottom - box.top : box.right - box.left }
        func extent(_ box: RawRect, across: Bool) -> Int { across ? box.right - box.left : box.bottom - box.top }
        func halved(_ rect: RawRect) -> RawRect {  // (into the reduced images' pixels)
            RawRect(left: rect.left / 2, top: rect.top / 2, right: rect.right / 2, bottom: rect.bottom / 2)
        }

        let dark = try reduced(128)
        let darkAcross = try opened(dark, across: true)
        var horizontal = try darkAcross.connectedComponentBoxes(scale: 2).filter { thickness($0, across: true) <= maximumThickness }
        var vertical = try opened(dark, across: false).connectedComponentBoxes(scale: 2).filter { thickness($0, across: false) <= maximumThickness }
        let paper = depth == 1 ? 255 : Int(try gray.paperLevel())
        let light = paper - 24 > 128 ? try reduced(paper - 24) : dark
        let long = 3 * minimumLength
        // A light rule is one the mid-gray image leaves (nearly) blank around: a word whose
        // letters ran together in the light image is dark there.
        func blankAtMidGray(_ rule: RawRect, across: Bool) throws(OCRError) -> Bool {
            let near = max(2, maximumThickness / 3)  // (closer than a cell's padding)
            let (dx, dy) = across ? (0, near) : (near, 0)
            let around = RawRect(left: rule.left - dx, top: rule.top - dy, right: rule.right + dx, bottom: rule.bottom + dy)
            return try dark.inkShare(in: halved(around)) < 0.1
        }
        if light !== dark {
            // (at mid-gray a rule down a table is not joined to the shaded rows it crosses)
            for rule in try opened(light, across: false).connectedComponentBoxes(scale: 2)
            where thickness(rule, across: false) <= maximumThickness && extent(rule, across: false) >= long && !vertical.contains(where: { $0.overlaps(rule) }) {
                if try blankAtMidGray(rule, across: false) { vertical.append(rule) }
            }
        }
        let lightAcross = light === dark ? darkAcross : try opened(light, across: true)
        let wide = try lightAcross.connectedComponentBoxes(scale: 2).filter { extent($0, across: true) >= long }
        // (on a 1 bpp page the light image is the dark one: every thin one is in `horizontal`)
        for rule in wide where thickness(rule, across: true) <= maximumThickness && !horizontal.contains(where: { $0.overlaps(rule) }) {
            if try blankAtMidGray(rule, across: true) { horizontal.append(rule) }
        }
        // A band thicker than a rule, at most an eighth of the page tall and shaded (the text on
        // it is ink too) is shading, not a picture or a shadow; where a rule runs down through
        // it (a table's columns are ruled) its edges part the table's rows. (Where only a frame
        // is drawn, shading marks a header or sections, and the rows are the words' to tell.)
        for band in wide where thickness(band, across: true) > maximumThickness && band.bottom - band.top <= height / 8 {
            let inside = band.left + maximumThickness, insideRight = band.right - maximumThickness
            // (through it and on past an edge: the dark between a shaded row's light letters,
            // or a dithered band's letters, makes strips as tall as the row, and no taller)
            let through = vertical.filter { rule in
                rule.left > inside && rule.right < insideRight && rule.top < band.bottom && band.top < rule.bottom
                    && (rule.top < band.top - maximumThickness || rule.bottom > band.bottom + maximumThickness)
            }
            guard !through.isEmpty else { continue }
            horizontal += try shadingEdges(of: band, between: through, light: lightAcross, dark: depth == 1 ? nil : dark, ruleThickness: maximumThickness)
        }
        return (horizontal, vertical)
    }

    /// The top and bottom edges of the shading in `band` (a component of `light`, the light
    /// image opened across, at half resolution) as thin horizontal rules, column by column
    /// between the rules `through` it: a ruled table's shaded rows alternate in its value
    /// columns while its first column's cell stays shaded over the rows it spans, so one
    /// component holds both, and only each column's own runs of shaded rows (each pixel row
    /// nearly all ink across the column, thicker than a rule) tell where its cells end.
    ///
    /// A run is shading only where it holds a cell's padding: two rows or more that `dark`
    /// (the mid-gray image; nil on a 1 bpp page, whose shading is ink at both thresholds)
    /// leaves blank, or dark throughout where the shading is dark (a scanned line of text
    /// whose letters ran together in the light image is partly dark in every row). It has an
    /// edge only where the rows past it are plainly paper (a scan's faint shading, patchy at
    /// the light threshold, has none inside its cells, nor has a dark band through its light
    /// letters). An edge so found in one column is the other columns' too where their rows
    /// turn from mostly paper to mostly shading there (a scan's noise breaks one column's
    /// run, and a lost edge would make its cell span two rows). An edge at one height in
    /// neighbouring columns is one rule across them.
    private func shadingEdges(of band: RawRect, between through: [RawRect], light: Pix, dark: Pix?, ruleThickness rule: Int) throws(OCRError) -> [RawRect] {
        var cuts = [band.left]
        for crossing in through.sorted(by: { $0.left < $1.left }) { cuts += [crossing.left, crossing.right] }
        cuts.append(band.right)
        let columns = stride(from: 0, to: cuts.count - 1, by: 2).map { (left: cuts[$0], right: cuts[$0 + 1]) }.filter { $0.right - $0.left > 4 * rule }
        let (top, bottom) = (band.top / 2, band.bottom / 2)
        // (measured inside the column: a frame's rule along its edge is dark in every row)
        func row(_ y: Int, _ column: (left: Int, right: Int)) -> RawRect {
            RawRect(left: (column.left + rule) / 2, top: y, right: (column.right - rule) / 2, bottom: y + 1)
        }
        // Each column's rows' ink at the light threshold, one row past the band each side
        // (outside the image: none).
        let ink = try columns.map { column throws(OCRError) in
            try (top - 1...bottom).map { y throws(OCRError) in try light.inkShare(in: row(y, column)) }
        }
        func share(_ column: Int, _ y: Int) -> Double { y < top - 1 || y > bottom ? 0 : ink[column][y - (top - 1)] }
        // (three rows of plain paper: inside a dark band, the rows through its light letters
        // keep the dark between them)
        func paper(_ column: Int, _ rows: Range<Int>) -> Bool { rows.map { share(column, $0) }.reduce(0, +) < 0.15 * Double(rows.count) }
        // Edges: the first row of a run, or the first past it, and which side is shaded.
        var found: [(y: Int, shadedBelow: Bool, column: Int)] = []
        for column in columns.indices {
            var y = top
            while y < bottom {
                guard share(column, y) >= 0.85 else { y += 1; continue }
                let start = y
                var plainRows = 0
                while y < bottom, share(column, y) >= 0.85 {
                    if let dark {
                        let darkShare = try dark.inkShare(in: row(y, columns[column]))
                        if darkShare < 0.02 || darkShare >= 0.85 { plainRows += 1 }
                    }
                    y += 1
                }
                // (thinner: a rule, found as one already)
                guard (y - start) * 2 > rule, dark == nil || plainRows >= 2 else { continue }
                if paper(column, start - 3..<start) { found.append((start, true, column)) }
                if paper(column, y..<y + 3) { found.append((y, false, column)) }
            }
        }
        // The other columns' at the same height, where their rows turn there: three rows on
        // the shaded side mostly ink, three on the other mostly not.
        func turns(_ column: Int, at y: Int, shadedBelow: Bool) -> Bool {
            func mean(_ rows: Range<Int>) -> Double { rows.map { share(column, $0) }.reduce(0, +) / Double(rows.count) }
            let (above, below) = (mean(y - 3..<y), mean(y..<y + 3))
            return shadedBelow ? below >= 0.7 && above <= 0.5 : above >= 0.7 && below <= 0.5
        }
        var edges = found
        for edge in found {
            for column in columns.indices where !edges.contains(where: { $0.column == column && $0.shadedBelow == edge.shadedBelow && abs($0.y - edge.y) <= 2 }) {
                if let y = (edge.y - 2...edge.y + 2).first(where: { turns(column, at: $0, shadedBelow: edge.shadedBelow) }) {
                    edges.append((y, edge.shadedBelow, column))
                }
            }
        }
        // As rules in full pixels, neighbouring columns' edges at one height joined.
        var rules: [RawRect] = []
        for edge in edges.sorted(by: { ($0.column, $0.y) < ($1.column, $1.y) }) {
            let (left, right) = (columns[edge.column].left, columns[edge.column].right)
            let y = edge.shadedBelow ? edge.y * 2 : edge.y * 2 - 2
            if let last = rules.lastIndex(where: { abs($0.top - y) <= 2 && $0.right >= left - 2 * rule && $0.right <= left }) {
                rules[last].right = right
            } else {
                rules.append(RawRect(left: left, top: y, right: right, bottom: y + 2))
            }
        }
        return rules
    }

    /// 8 bpp gray with the background brought to white (Leptonica's `pixBackgroundNormSimple`):
    /// uneven lighting, gray paper and shaded cells flattened before thresholding.
    package func backgroundNormalized() throws(OCRError) -> Pix {
        let gray = try gray8()
        return Pix(owning: try CheckC.nonNull(pixBackgroundNormSimple(gray.raw, nil, nil), "normalising the background"))  // NULL on error.
    }

    /// Leptonica's background map of this 8 bpp image (`pixGetBackgroundGrayMap`): the mean of
    /// the pixels above `threshold` in each `tile` x `tile` tile, tiles with too few of them
    /// filled from their neighbours; nil when the image has too little background to map.
    package func backgroundMap(tile: Int, threshold: Int) throws(OCRError) -> GrayGrid? {
        let gray = try gray8()
        var map: UnsafeMutablePointer<PIX>? = nil
        // 0 on success; 1 (map NULL) when no tile has enough background pixels (mincount 50).
        guard pixGetBackgroundGrayMap(gray.raw, nil, Int32(tile), Int32(tile), Int32(threshold), 50, &map) == 0,
              let map else { return nil }
        return try Pix(owning: map).grayGrid()
    }

    /// 8 bpp gray through a 3 x 3 median filter: speckle and JPEG noise removed, strokes kept.
    package func medianFiltered() throws(OCRError) -> Pix {
        let gray = try gray8()
        return Pix(owning: try CheckC.nonNull(pixMedianFilter(gray.raw, 3, 3), "median filtering"))  // NULL on error.
    }

    /// 8 bpp gray smoothed by a Gaussian of standard deviation `sigma` pixels (separable,
    /// three deviations each side).
    package func gaussianBlurred(sigma: Double) throws(OCRError) -> Pix {
        let gray = try gray8()
        let half = Int32(max(1, (3 * sigma).rounded(.up)))
        var kernelX: UnsafeMutablePointer<L_KERNEL>?
        var kernelY: UnsafeMutablePointer<L_KERNEL>?
        defer { kernelDestroy(&kernelX); kernelDestroy(&kernelY) }
        guard makeGaussianKernelSep(half, half, Float(sigma), 1, &kernelX, &kernelY) == 0 else {  // 0 ok.
            throw OCRError(.internal, "making a Gaussian kernel failed")
        }
        return Pix(owning: try CheckC.nonNull(pixConvolveSep(gray.raw, kernelX, kernelY, 8, 1), "blurring"))  // NULL on error.
    }

    /// The pixels of an 8 bpp image without a colour map, as bytes (for analysis in Swift).
    package func grayGrid() throws(OCRError) -> GrayGrid {
        guard depth == 8, pixGetColormap(raw) == nil else { throw OCRError(.internal, "grayGrid needs an 8 bpp image without a colour map") }
        guard let data = pixGetData(raw) else { throw OCRError(.internal, "image without pixels") }
        let (w, h, rowBytes) = (width, height, Int(pixGetWpl(raw)) * 4)
        let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self)
        // Leptonica keeps 8 bpp pixels in 32-bit words, the leftmost in the most significant
        // byte: byte x of a row is at x ^ 3 on a little-endian host (as shiftedVertically reads).
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h) { buffer, count in
            for y in 0..<h {
                let row = bytes + y * rowBytes
                for x in 0..<w { buffer[y * w + x] = row[x ^ 3] }
            }
            count = w * h
        }
        return withExtendedLifetime(self) { GrayGrid(width: w, height: h, pixels: pixels) }
    }

    /// 8 bpp gray closed (dilated, then eroded) with a `size` x `size` brick: dark marks narrower
    /// than that (text, rules) vanish into the paper around them. `size` is made odd.
    package func grayClosed(size: Int) throws(OCRError) -> Pix {
        let gray = try gray8()
        let k = Int32(size | 1)
        return Pix(owning: try CheckC.nonNull(pixCloseGray(gray.raw, k, k), "closing the image"))  // NULL on error.
    }

    /// A `width` x `height` image whose pixel (x, y) is this image's at `sourceOf(x, y)`
    /// (interpolated; white outside): Leptonica's `pixProjective`, which keeps the input's size,
    /// on a canvas extended right and down as far as the output needs.
    package func projected(_ sourceOf: Homography, width: Int, height: Int) throws(OCRError) -> Pix {
        let gray = try gray8()
        let (right, bottom) = (max(0, width - gray.width), max(0, height - gray.height))
        let canvas = right + bottom == 0 ? gray
            : Pix(owning: try CheckC.nonNull(pixAddBorderGeneral(gray.raw, 0, Int32(right), 0, Int32(bottom), 255), "extending the canvas"))  // NULL on error.
        var coefficients = sourceOf.coefficients.map { Float($0) }
        let warped = Pix(owning: try CheckC.nonNull(pixProjective(canvas.raw, &coefficients, Int32(L_BRING_IN_WHITE)), "correcting the perspective"))  // NULL on error.
        return try warped.cropped(RawRect(left: 0, top: 0, right: width, bottom: height))
    }

    /// This 8 bpp page with its text lines straightened by Leptonica's dewarping (a page model
    /// of vertical disparity built from its long text lines, thresholded at `threshold`), and
    /// the disparity it applied sampled every `step` pixels; nil when Leptonica finds too few
    /// long lines (15) or a model it judges invalid.
    package func dewarped(threshold: Int, step: Int) throws(OCRError) -> (image: Pix, disparity: VerticalDisparity)? {
        let gray = try gray8()
        let binary = try gray.toBinary(threshold: threshold)
        // dewarpaCreate(pages, sampling 0: default 30, full resolution, minlines 0: default 15,
        // maxdist -1: no reference pages): NULL on error.
        var dewa: UnsafeMutablePointer<L_DEWARPA>? = try CheckC.nonNull(dewarpaCreate(1, 0, 1, 0, -1), "starting dewarping")
        defer { dewarpaDestroy(&dewa) }  // Also destroys the page model inserted below.
        _ = dewarpaUseBothArrays(dewa, 0)  // Vertical disparity only: the perspective is already corrected.
        let dew = try CheckC.nonNull(dewarpCreate(binary.raw, 0), "making a dewarping model")  // NULL on error.
        try CheckC.zero(dewarpaInsertDewarp(dewa, dew), "adding the dewarping model")  // 0 ok; dewa owns dew now.
        guard dewarpBuildPageModel(dew, nil) == 0 else { return nil }  // 1: too few lines, or no model.
        var vertical: Int32 = 0, horizontal: Int32 = 0
        guard dewarpaModelStatus(dewa, 0, &vertical, &horizontal) == 0, vertical != 0 else { return nil }
        var out: UnsafeMutablePointer<PIX>?
        // dewarpaApplyDisparity: 0 ok, 1 when the model is invalid (Leptonica's curvature checks).
        guard dewarpaApplyDisparity(dewa, 0, gray.raw, 255, 0, 0, &out, nil) == 0, let out else { return nil }
        let image = Pix(owning: out)
        // Applying frees the full-resolution arrays (dewarpMinimize): made again to be read.
        guard dewarpPopulateFullRes(dew, gray.raw, 0, 0) == 0, let field = dew.pointee.fullvdispar else { return nil }
        let (columns, rows) = ((gray.width + step - 1) / step + 1, (gray.height + step - 1) / step + 1)
        var samples = [Float](repeating: 0, count: columns * rows)
        var fw: Int32 = 0, fh: Int32 = 0
        _ = fpixGetDimensions(field, &fw, &fh)
        for r in 0..<rows {
            for c in 0..<columns {
                var v: Float = 0
                _ = fpixGetPixel(field, min(Int32(c * step), fw - 1), min(Int32(r * step), fh - 1), &v)  // 1 only off the array.
                samples[r * columns + c] = v
            }
        }
        return (image, VerticalDisparity(step: step, columns: columns, rows: rows, samples: samples))
    }

    /// The image with `size` pixels of white (paper) added on every side.
    package func withWhiteBorder(_ size: Int) throws(OCRError) -> Pix {
        let n = Int32(size)
        return Pix(owning: try CheckC.nonNull(pixAddBlackOrWhiteBorder(raw, n, n, n, n, Int32(L_GET_WHITE_VAL)), "adding a white border"))
    }

    /// The part of the image inside `r` (clipped to the image).
    package func cropped(_ r: RawRect) throws(OCRError) -> Pix {
        let box = try CheckC.nonNull(boxCreate(Int32(r.left), Int32(r.top), Int32(r.width), Int32(r.height)), "making a crop box")  // NULL if w/h < 1.
        var b: UnsafeMutablePointer<BOX>? = box
        defer { boxDestroy(&b) }
        return Pix(owning: try CheckC.nonNull(pixClipRectangle(raw, box, nil), "cropping to the region of interest"))  // NULL if outside.
    }

    // MARK: PDF images

    /// This image encoded for a PDF image XObject, losslessly: CCITT G4 when bilevel, else
    /// Flate of its samples (a colour map becomes an indexed palette). Leptonica's own PDF path
    /// (`pixGenerateCIData`), as Tesseract's PDF renderer uses it.
    package func pdfImage() throws(OCRError) -> PdfImage {
        var cid: UnsafeMutablePointer<L_COMP_DATA>?
        let type = depth == 1 ? L_G4_ENCODE : L_FLATE_ENCODE
        try CheckC.zero(pixGenerateCIData(raw, Int32(type), 0, 0, &cid), "encoding the page image for PDF")
        defer { l_CIDataDestroy(&cid) }
        let data = try CheckC.nonNull(cid, "encoding the page image for PDF").pointee
        var image = PdfImage()
        image.encoding = type == L_G4_ENCODE ? .ccittG4 : .flate
        image.width = UInt32(clamping: data.w)
        image.height = UInt32(clamping: data.h)
        image.bitsPerComponent = UInt32(clamping: data.bps)
        image.components = UInt32(clamping: data.spp)
        // Leptonica's G4 codes its black (1) pixels as CCITT's black runs, which a PDF decoder
        // gives back as 0 bits (/BlackIs1 false) unless the image was min-is-black.
        image.blackIs1 = data.minisblack != 0
        if let bytes = data.datacomp { image.data = Array(UnsafeBufferPointer(start: bytes, count: data.nbytescomp)) }
        if data.ncolors > 0, let hex = data.cmapdatahex { image.palette = Self.hexBytes(String(cString: hex)) }
        if data.predictor != 0 { throw OCRError(.internal, "Leptonica's Flate data has PNG predictors, which this encoder does not declare") }
        return image
    }

    /// The width, height and colour components of a JPEG from its header, without decoding it.
    package static func jpegHeader(_ bytes: [UInt8]) throws(OCRError) -> (width: Int, height: Int, components: Int) {
        var w: Int32 = 0, h: Int32 = 0, spp: Int32 = 0, cmyk: Int32 = 0
        try CheckC.zero(readHeaderMemJpeg(bytes, bytes.count, &w, &h, &spp, nil, &cmyk), "reading the JPEG header", code: .invalidArgument)
        return (Int(w), Int(h), cmyk != 0 ? 4 : Int(spp))
    }

    /// `<0a1b2c ...>` (Leptonica's palette as a PDF hex string) as bytes.
    private static func hexBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        let inside = text.drop { $0 != "<" }.prefix { $0 != ">" }
        for c in inside.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: continue
            }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return out
    }
}
