/// Base-128 varints: 7 bits per byte, least significant group first, high bit = "more follows".
enum Varint {
    /// Bytes needed to encode `value` (1...10).
    @inline(__always)
    static func encodedSize(_ value: UInt64) -> Int {
        // Each byte carries 7 bits: ceil(significantBits / 7), at least 1.
        let bits = 64 - value.leadingZeroBitCount
        return bits == 0 ? 1 : (bits + 6) / 7
    }
}

/// ZigZag maps signed integers to unsigned so small magnitudes stay small: 0, -1, 1, -2 -> 0, 1, 2, 3.
enum ZigZag {
    @inline(__always) static func encode32(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }
    @inline(__always) static func encode64(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    @inline(__always) static func decode32(_ v: UInt32) -> Int32 { Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }
    @inline(__always) static func decode64(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }
}
