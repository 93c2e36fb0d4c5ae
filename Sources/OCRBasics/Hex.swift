extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hex digits, two per byte.
    package var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        for byte in self {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

extension UInt64 {
    /// 16 lowercase hex digits: how worker uids are spelled in logs and messages.
    package var paddedHex: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
