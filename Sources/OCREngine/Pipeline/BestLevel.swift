import OCRLeptonica
import OCRPageModel
import OCRPageEngine
import OCRWire

/// The `best` level: after the `accurate` pass (and its reading again of the parts of the page
/// where text was lost, ``LostText``), a page it is unsure of or lost text on is read again up to
/// three times, each time differently, and the readings are combined word by word
/// (``WordCombination/overBestPasses``). Every extra pass reads an image of the same size,
/// so all boxes are in the same pixels and map back to the original through the page's one
/// ``PageGeometry``.
///
/// The passes: background normalised (faded text, uneven lighting, shaded paper; not on a 1 bpp
/// page, which has no background to even out), median filtered (speckle and JPEG noise) and one
/// uniform text block (`--psm 6`: columns the layout analysis drops, as a receipt's prices).
/// Each pass was measured by leaving it out on the real-layout corpus's dev half (BENCHMARKS.md,
/// "`best` at its cost"): without the median filter or the text block `best` reads fewer
/// words, and it still loses words on some pages that one reading alone had. Tesseract's combined
/// recogniser with the full model and the legacy recogniser's word boxes on run-together pages
/// cost 1.5x tesseract's CPU between them and gave nothing. A page of small text has already
/// been read enlarged (``SmallText``) by then, at `accurate` as well.
enum BestLevel {
    /// An extra reading of the page.
    enum Pass {
        case backgroundNormalized, medianFiltered, singleBlock
        /// The page enlarged ``SmallText/factor`` times, its words mapped back to the page's
        /// pixels: pages of small text, at every level but `fast`, before `best`'s passes.
        case enlarged
        /// One text line (`--psm 7`) on a white border: a part of the page holding one number
        /// the first pass was unsure of (``DoubtfulNumbers``).
        case singleLine
        /// One text block (`--psm 6`) on a white border: a ruled table's cell, cut out inside
        /// its rules, whose words the first pass was unsure of (``DoubtfulCells``).
        case cellBlock

        /// Its name in `Timings.steps`.
        var stepName: String {
            switch self {
            case .backgroundNormalized: "pass_background_normalized"
            case .medianFiltered: "pass_median_filtered"
            case .singleBlock: "pass_single_block"
            case .enlarged: "pass_enlarged"
            case .singleLine: "pass_single_line"
            case .cellBlock: "pass_cell_block"
            }
        }
    }

    /// Unsure: at least one word in a hundred below 80% confidence, or fewer than 60 words (a
    /// sparse page is where whole regions go missing, and it is cheap to read again).
    static func isUnsure(_ blocks: [RawBlock]) -> Bool {
        let words = RawBlock.wordsWithText(blocks)
        guard words.count >= minimumWords else { return true }
        return Double(words.filter { $0.confidence < lowConfidence }.count) >= unsureShare * Double(words.count)
    }

    /// `passes` as they apply to a page of `depth` bits per pixel: a 1 bpp page has no background
    /// to normalise, and that pass would read the same pixels again.
    static func passes(_ passes: [Pass], depth: Int) -> [Pass] {
        passes.filter { depth > 1 || $0 != .backgroundNormalized }
    }

    /// What `accurate` spends on a page whose text was lost (``LostText``): one text block (the
    /// layout analysis dropped a column) and background normalised (a dark corner or shading
    /// swallowed a region).
    static let recoveryPasses: [Pass] = [.singleBlock, .backgroundNormalized]

    /// `best`'s passes over a page it is unsure of (a page of small text was read enlarged before).
    static let bestPasses: [Pass] = [.backgroundNormalized, .medianFiltered, .singleBlock]

    static let minimumWords = 60
    static let lowConfidence: Float = 0.8
    static let unsureShare = 0.01
}

extension Recognizer {
    /// The extra passes over `pix` (already preprocessed as the first pass read it) and their
    /// combination with `primary`. Their cost is bounded in work, not time: each pass is one
    /// reading of the page, and there are at most `passes.count`, so the same page gives the same
    /// words on a busy machine as on an idle one (a budget of 5x the first pass's time used to
    /// cut passes short under load). Only the caller's page deadline stops them, keeping what
    /// was read so far; cancellation throws. With `regions`, each pass reads only those parts of
    /// the page (``LostRegions``), each on its own, in the page's pixels; `knownLetters` when those
    /// regions are small and known to hold letters the first pass did not read
    /// (``WordCombination/init(replacesWords:joinsDistantLines:overKnownLetters:overLostText:)``);
    /// `combination`, when given, combines the readings instead of that default; `regionReading`,
    /// when given, makes of each region's reading (in the page's pixels) what is kept of it:
    /// all of it, part of it or nothing; `step`, when given, names the passes' cost in the page's
    /// step list instead of the pass's own name (a guard's reading apart from another's).
    func refine(_ primary: [RawBlock], passes: [BestLevel.Pass], regions: [RawRect]? = nil, knownLetters: Bool = false,
                combination: WordCombination? = nil, regionReading: ((RawRect, [RawBlock]) -> [RawBlock])? = nil, step: String? = nil, pix: Pix, dpi: Int,
                options: RecognitionOptions,
                settings: PageSettings, deadline: ContinuousClock.Instant?, cancellation: PageControl?,
                costs: inout StepCosts) throws(OCRError) -> (blocks: [RawBlock], passes: Int) {
        let state = Monitor.State(deadline: deadline, cancellation: cancellation)
        var readings = [primary]
        for pass in passes {
            if state.shouldStop() { break }
            guard let reading = try costs.measure(step ?? pass.stepName, { () throws(OCRError) in
                try read(pass, in: regions, regionReading: regionReading, pix: pix, dpi: dpi, options: options, settings: settings, state)
            }) else { continue }
            if state.stopReason != nil { break }  // Cut short: its words are partial.
            readings.append(reading)
        }
        if state.stopReason == .cancelled { throw OCRError(.cancelled, "recognition was cancelled") }
        // Over regions (text lost), the readings only add words (elsewhere they are partial),
        // into the lines they lie on.
        let combination = combination
            ?? WordCombination(replacesWords: regions == nil, joinsDistantLines: regions != nil, overKnownLetters: knownLetters,
                               overLostText: regions != nil)
        let combined = try costs.measure("combine") { combination.combine(readings) }
        return (combined, readings.count)
    }

    /// One extra pass's words over `regions` of `pix` (the whole page when nil), or nil when the
    /// pass does not apply to this page or was stopped.
    private func read(_ pass: BestLevel.Pass, in regions: [RawRect]?, regionReading: ((RawRect, [RawBlock]) -> [RawBlock])?, pix: Pix, dpi: Int,
                      options: RecognitionOptions,
                      settings: PageSettings, _ state: Monitor.State) throws(OCRError) -> [RawBlock]? {
        guard let regions else { return try read(pass, pix: pix, dpi: dpi, options: options, settings: settings, state) }
        var blocks: [RawBlock] = []
        for region in regions {
            guard let part = try read(pass, pix: try pix.cropped(region), dpi: dpi, options: options, settings: settings, state) else { return nil }
            let placed = part.map { $0.shifted(region.left, region.top) }
            blocks += regionReading?(region, placed) ?? placed
        }
        return blocks
    }

    /// One extra pass's words, or nil when the pass does not apply to this page.
    private func read(_ pass: BestLevel.Pass, pix: Pix, dpi: Int, options: RecognitionOptions, settings: PageSettings,
                      _ state: Monitor.State) throws(OCRError) -> [RawBlock]? {
        var settings = settings
        var image = pix
        var dpi = dpi
        var factor = 1.0  // The image read over the page's.
        var border = 0  // White added around the image read, taken off its words' boxes.
        switch pass {
        case .backgroundNormalized: image = try pix.backgroundNormalized()
        case .medianFiltered: image = try pix.medianFiltered()
        case .singleBlock:
            guard settings.psm == 3 else { return nil }  // The caller chose a segmentation: kept.
            settings.psm = 6
        case .enlarged:
            factor = SmallText.factor
            // A 1 bpp page's edges are steps of whole pixels (and a dithered fax's gray is dots):
            // interpolated as they are, they make jagged letters that the enlarged reading misreads
            // ("2019" as "2049", "D" as "B"); smoothed first, they grow as a scan at that
            // resolution would have seen them (SmallText.bilevelSmoothing).
            image = pix.depth == 1 ? try pix.gaussianBlurred(sigma: SmallText.bilevelSmoothing).scaled(factor)
                                   : try pix.toGray().scaled(factor)
            dpi = Int((Double(dpi) * factor).rounded())
        case .singleLine:
            settings.psm = 7
            // The recogniser reads a line cropped tight to its ink worse than one with paper
            // around it, as on the page.
            border = max(4, pix.height / 2)
            image = try pix.withWhiteBorder(border)
        case .cellBlock:
            settings.psm = 6
            border = max(8, pix.height / 4)
            image = try pix.withWhiteBorder(border)
        }
        let api = try engine(for: EngineKey(options, configuration))
        if state.shouldStop() { return nil }
        api.clear()
        defer { api.clear() }
        try settings.apply(to: api)
        api.setImage(image, dpi: dpi)
        guard api.recognize(try Monitor(state: state)) else { return nil }
        let blocks = api.results(choices: settings.candidates > 1).map { border == 0 ? $0 : $0.shifted(-border, -border) }
        return factor == 1 ? blocks : blocks.map { $0.mapped(scale: factor) }
    }
}
