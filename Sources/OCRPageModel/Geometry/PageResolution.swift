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
        /// A small image without a usable tag (a snippet, a line): Tesseract's default.
        case assumed
    }

    /// The longest page side (inches) a tag may imply: tabloid/A3 with some margin.
    package static let longestPlausibleInches = 17.5
    /// A page's long side is taken as 11 inches when its resolution is estimated.
    package static let assumedLongSideInches = 11.0

    /// The resolution for a page of `width` x `height` pixels whose file says `tag` (0: none),
    /// with `requested` from the options (0: none).
    package static func choose(tag: Int, width: Int, height: Int, requested: Int) -> (dpi: Int, source: Source) {
        if requested > 0 { return (requested, .requested) }
        let long = Double(max(width, height))
        if (70...2400).contains(tag), long / Double(tag) <= longestPlausibleInches {
            return (tag, .tag)
        }
        // Page-sized pixels with no believable tag: a scan or an export of a document page.
        if long >= 1400 {
            return (min(600, max(150, Int((long / assumedLongSideInches).rounded()))), .estimated)
        }
        return (300, .assumed)
    }
}
