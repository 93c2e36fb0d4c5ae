/// The resolution a page is recognised at. Tesseract scales its line and rule finding by it, so
/// a wrong one costs whole regions: a 300-dpi table page tagged 72 dpi (what exporters and
/// `img2pdf` write for an untagged scan) keeps its ruled borders as "image" regions that swallow
/// the columns (42.6% of the words right with the tag, 99.0% at 300 dpi: `make accuracy`).
package enum PageResolution {
    /// Where the resolution came from.
    package enum Source: String, Sendable {
        /// `--dpi` (RecognitionOptions.dpi), which overrides any tag.
        case requested
        /// The file's tag, plausible for a page of its pixel size.
        case tag
        /// No tag, or one that makes the page implausibly large or small: estimated from the
        /// pixel size, taking the page for a document page (letter or A4: 11 to 11.7 in long).
        case estimated
        /// As `estimated`, but the page is too narrow for a document page (a receipt, a strip):
        /// estimated from the height of its letters instead.
        case textSize
        /// A small image without a usable tag (a snippet, a line): Tesseract's default.
        case assumed
    }

    /// The longest page side (inches) a tag may imply: tabloid/A3 with some margin.
    package static let longestPlausibleInches = 17.5
    /// A page's long side is taken as 11 inches when its resolution is estimated.
    package static let assumedLongSideInches = 11.0
    /// A page whose short side is less than this share of its long side is no document page
    /// (letter 0.77, A4 0.71, tabloid 0.65, legal 0.61) but a receipt or a strip, whose long side
    /// says nothing of its resolution: a receipt 1,860 px long was estimated at 169 dpi where
    /// its print is about 300 dpi.
    package static let narrowestDocumentPage = 0.6
    /// The median letter height of body text, in inches (27 px at 300 dpi): a narrow page's
    /// resolution is its median letter height over this. Chosen on receipts 120-159 of SROIE
    /// (a set no choice was made on before): 1/11 in read 1,613 of their 2,175 segments exactly
    /// against 1,576 at the long side's estimate; 1/13.4 in (about Tesseract's own estimate
    /// from the text's size) 1,585; a fixed 240, 300, 350 and 450 dpi 1,583, 1,616, 1,591 and
    /// 1,583, with 1 to 6 receipts below plain `tesseract` by more than two segments, against 1
    /// (as before) at 1/11 in (BENCHMARKS.md, "Lines dropped whole, and a receipt's resolution").
    package static let letterHeightInches = 1 / 11.0

    /// The resolution for a page of `width` x `height` pixels whose file says `tag` (0: none),
    /// with `requested` from the options (0: none); `letterHeight` measures the page's median
    /// letter height in pixels (nil: no letters), asked only of a narrow page with no usable tag.
    package static func choose(tag: Int, width: Int, height: Int, requested: Int,
                               letterHeight: () -> Int? = { nil }) -> (dpi: Int, source: Source) {
        if requested > 0 { return (requested, .requested) }
        let long = Double(max(width, height))
        if (70...2400).contains(tag), long / Double(tag) <= longestPlausibleInches {
            return (tag, .tag)
        }
        // Page-sized pixels with no believable tag: a scan or an export of a document page.
        if long >= 1400 {
            if Double(min(width, height)) / long < narrowestDocumentPage, let letters = letterHeight(), letters > 0 {
                return (clamped(Double(letters) / letterHeightInches), .textSize)
            }
            return (clamped(long / assumedLongSideInches), .estimated)
        }
        return (300, .assumed)
    }

    /// An estimate rounded and kept within 150...600 dpi.
    private static func clamped(_ dpi: Double) -> Int { min(600, max(150, Int(dpi.rounded()))) }
}
