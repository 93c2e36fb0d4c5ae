import OCRWire

extension Array where Element == PageRange {
    /// Page ranges as people write them, 1-based: `1-3,7,10-` is pages 1 to 3, 7, and 10 to
    /// the end. Throws INVALID_ARGUMENT naming the part that is not a range.
    public init(parsing text: String) throws(OCRError) {
        var ranges: [PageRange] = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            let first = UInt32(bounds[0])
            let last = bounds.count == 1 ? first : (bounds[1].isEmpty ? 0 : UInt32(bounds[1]))
            guard bounds.count <= 2, let first, let last, first >= 1, last == 0 || last >= first else {
                throw OCRError(.invalidArgument, "page ranges look like 1-3,7,10-, not '\(part)'")
            }
            ranges.append(PageRange.with { $0.first = first; $0.last = last })
        }
        if ranges.isEmpty { throw OCRError(.invalidArgument, "page ranges look like 1-3,7,10-, not '\(text)'") }
        self = ranges
    }
}
