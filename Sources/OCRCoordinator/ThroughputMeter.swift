
/// Events per second over a sliding window, in one-second buckets: O(1) per `record`.
struct ThroughputMeter: Sendable {
    private var buckets: [UInt64]
    private var currentSecond: Int64 = 0
    private let windowSeconds: Int

    init(window: Duration) {
        windowSeconds = max(1, Int(window.components.seconds))
        buckets = [UInt64](repeating: 0, count: windowSeconds + 1)
    }

    mutating func record(at now: Duration, count: UInt64 = 1) {
        advance(to: now.components.seconds)
        buckets[Int(currentSecond % Int64(buckets.count))] += count
    }

    /// Events per second over the last `window` (less right after start).
    func rate(at now: Duration) -> Double {
        var copy = self
        let second = now.components.seconds
        copy.advance(to: second)
        // The finished seconds of the window plus the fraction of the current one.
        let fraction = Double(now.components.attoseconds) / 1e18
        let span = min(Double(windowSeconds), Double(second)) + fraction
        guard span > 0 else { return 0 }
        return Double(copy.buckets.reduce(0, +)) / span
    }

    private mutating func advance(to second: Int64) {
        guard second > currentSecond else { return }
        let steps = min(Int64(buckets.count), second - currentSecond)
        for s in 1...steps { buckets[Int((currentSecond + s) % Int64(buckets.count))] = 0 }
        currentSecond = second
    }
}
