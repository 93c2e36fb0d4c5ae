import OCRPages

/// The order a job's pages are first dispatched in: its heavy pages first, the largest first,
/// then the others in page order.
///
/// A job's pages run on a handful of slots at once, so the job ends when its last page does. A
/// page that costs several times the others (a scan whose back shows through reads as a page of
/// noise: 2.7 s against about 1 s) dispatched near the end leaves every other slot idle while it
/// runs: dispatched first, the other pages fill the other slots meanwhile (the classic "longest
/// first" rule of list scheduling). A page's compressed bytes (``PageDescriptor/encodedBytes``)
/// tell its work before it is decoded; only pages far above the job's median are moved, so
/// results still arrive nearly in page order, and a job of like pages goes out as it came.
package enum DispatchOrder {
    /// A page is heavy at this many times the median bytes of its job's pages, or more.
    package static let heavyFactor: UInt64 = 2

    /// The indexes of the heavy pages of `pages`, largest first (ties in page order); empty
    /// when fewer than three pages tell their bytes.
    package static func heavyPages(_ pages: [PageDescriptor]) -> [Int] {
        let sizes = pages.compactMap(\.encodedBytes)
        guard sizes.count >= 3 else { return [] }
        let median = sizes.sorted()[sizes.count / 2]
        let (threshold, overflow) = median.multipliedReportingOverflow(by: heavyFactor)
        guard !overflow, median > 0 else { return [] }
        let heavy = pages.indices.compactMap { index in
            pages[index].encodedBytes.flatMap { $0 >= threshold ? (index: index, bytes: $0) : nil }
        }
        return heavy.sorted { ($0.bytes, $1.index) > ($1.bytes, $0.index) }.map(\.index)
    }
}
