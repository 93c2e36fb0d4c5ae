import Foundation

/// A size in words that tell the truth: binary units with one decimal and the exact count, so
/// that a 2,000,000-byte upload over a 1 MiB limit never reads as "1 MB ... at most 1 MB".
package enum ByteCount {
    /// "512 bytes", "1 byte", "1.9 MiB (2,000,000 bytes)", "4.0 GiB (4,294,967,296 bytes)".
    package static func text(_ bytes: some BinaryInteger) -> String {
        let count = Int64(clamping: bytes)
        let exact = grouped(count)
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where count >= Int64(1) << shift {
            return String(format: "%.1f %@ (%@ bytes)", Double(count) / Double(Int64(1) << shift), unit, exact)
        }
        return count == 1 ? "1 byte" : "\(exact) bytes"
    }

    /// 2000000 -> "2,000,000".
    static func grouped(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
