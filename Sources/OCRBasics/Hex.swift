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
