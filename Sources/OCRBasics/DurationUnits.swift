// The one conversion of `Duration` to the units the wire, logs and timings use. Truncated
// toward zero; negative durations give negative values (clamp at the call site where the
// wire wants an unsigned number: `UInt64(clamping: d.microseconds)`).
extension Duration {
    /// Whole milliseconds.
    package var milliseconds: Int64 {
        let (s, attoseconds) = components
        return s * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole microseconds.
    package var microseconds: Int64 {
        let (s, attoseconds) = components
        return s * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// Seconds, as a `Double` (for `Date`, `DispatchTime` and printing).
    package var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
