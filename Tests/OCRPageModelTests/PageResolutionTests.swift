import Testing
@testable import OCRPageModel

/// Which resolution a page is recognised at: `--dpi` over everything, a tag only when it fits a
/// page of that many pixels, else an estimate from the pixel size.
@Suite struct PageResolutionTests {
    @Test func requestedWinsOverAnyTag() {
        #expect(PageResolution.choose(tag: 72, width: 2550, height: 3300, requested: 300) == (300, .requested))
        #expect(PageResolution.choose(tag: 600, width: 2550, height: 3300, requested: 200) == (200, .requested))
    }

    @Test func aPlausibleTagIsKept() {
        #expect(PageResolution.choose(tag: 300, width: 2550, height: 3300, requested: 0) == (300, .tag))
        #expect(PageResolution.choose(tag: 204, width: 1728, height: 2200, requested: 0) == (204, .tag))  // a fax
        #expect(PageResolution.choose(tag: 96, width: 1600, height: 1000, requested: 0) == (96, .tag))    // a screen, 16.7 in
    }

    @Test func aTagThatMakesThePageHugeIsReplacedByAnEstimate() {
        // A 300-dpi letter scan tagged 72 (35 x 46 in) or 96 dpi.
        #expect(PageResolution.choose(tag: 72, width: 2550, height: 3300, requested: 0) == (300, .estimated))
        #expect(PageResolution.choose(tag: 96, width: 3300, height: 2550, requested: 0) == (300, .estimated))
        // A4 at 300 dpi, untagged; a phone photo tagged 72.
        #expect(PageResolution.choose(tag: 0, width: 2480, height: 3508, requested: 0) == (319, .estimated))
        #expect(PageResolution.choose(tag: 72, width: 3024, height: 4032, requested: 0) == (367, .estimated))
        // Estimates stay within 150...600 dpi.
        #expect(PageResolution.choose(tag: 0, width: 900, height: 1450, requested: 0) == (150, .estimated))
        #expect(PageResolution.choose(tag: 0, width: 9000, height: 9000, requested: 0) == (600, .estimated))
    }

    /// A receipt or a strip is no document page: its long side says nothing of its resolution,
    /// the height of its letters does (27 px is 300 dpi). A document page is estimated from its
    /// size whatever its letters, and a narrow page with a usable tag or no letters as before.
    @Test func aNarrowPageIsEstimatedFromItsLetters() {
        #expect(PageResolution.choose(tag: 0, width: 934, height: 1860, requested: 0, letterHeight: { 27 }) == (297, .textSize))
        #expect(PageResolution.choose(tag: 72, width: 1860, height: 934, requested: 0, letterHeight: { 18 }) == (198, .textSize))
        #expect(PageResolution.choose(tag: 0, width: 934, height: 1860, requested: 0, letterHeight: { 5 }) == (150, .textSize))
        #expect(PageResolution.choose(tag: 0, width: 934, height: 1860, requested: 0, letterHeight: { nil }) == (169, .estimated))
        #expect(PageResolution.choose(tag: 200, width: 934, height: 1860, requested: 0, letterHeight: { 27 }) == (200, .tag))
        var asked = false
        #expect(PageResolution.choose(tag: 0, width: 2550, height: 3300, requested: 0, letterHeight: { asked = true; return 12 }) == (300, .estimated))
        #expect(!asked)
    }

    @Test func smallImagesWithoutATagAssume300() {
        #expect(PageResolution.choose(tag: 0, width: 1200, height: 80, requested: 0) == (300, .assumed))
        #expect(PageResolution.choose(tag: 1, width: 640, height: 480, requested: 0) == (300, .assumed))
    }
}
