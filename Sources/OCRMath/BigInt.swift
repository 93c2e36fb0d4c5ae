/// An arbitrary-precision signed integer, just enough for `Rational`: parse, add, subtract,
/// multiply, divide with remainder, compare, print in decimal.
///
/// Sign and magnitude; the magnitude is little-endian base-2^32 limbs without leading zero
/// limbs (zero has none and is never negative). Division is Knuth's algorithm D.
public struct BigInt: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// True for negative values (never for zero).
    public private(set) var isNegative: Bool
    /// Little-endian base-2^32 digits of the absolute value, no trailing zeros.
    private(set) var limbs: [UInt32]

    /// 0.
    public static let zero = BigInt(limbs: [], negative: false)
    /// 1.
    public static let one = BigInt(1)

    init(limbs: [UInt32], negative: Bool) {
        self.limbs = Magnitude.trimmed(limbs)
        self.isNegative = negative && !self.limbs.isEmpty
    }

    /// The integer `value`.
    public init(_ value: Int) {
        let magnitude = value.magnitude
        var limbs: [UInt32] = []
        var rest = UInt64(magnitude)
        while rest > 0 {
            limbs.append(UInt32(truncatingIfNeeded: rest))
            rest >>= 32
        }
        self.init(limbs: limbs, negative: value < 0)
    }

    /// Parses optional '-' and decimal digits; nil for anything else (including "").
    public init?(_ text: Substring) {
        var digits = text
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var limbs: [UInt32] = []
        // Nine decimal digits at a time: limbs = limbs * 10^k + chunk.
        var index = digits.startIndex
        while index < digits.endIndex {
            let end = digits.index(index, offsetBy: 9, limitedBy: digits.endIndex) ?? digits.endIndex
            let chunk = digits[index..<end]
            var scale: UInt32 = 1
            for _ in chunk { scale *= 10 }
            limbs = Magnitude.multiplyAdd(limbs, scale, UInt32(chunk)!)
            index = end
        }
        self.init(limbs: limbs, negative: negative)
    }

    /// Parses optional `-` and decimal digits; nil for anything else.
    public init?(_ text: String) { self.init(text[...]) }

    /// Whether this is 0.
    public var isZero: Bool { limbs.isEmpty }
    /// -1, 0 or 1.
    public var signum: Int { isZero ? 0 : (isNegative ? -1 : 1) }
    /// The absolute value.
    public var magnitude: BigInt { BigInt(limbs: limbs, negative: false) }
    /// Number of bits of the absolute value (0 for zero).
    public var bitWidth: Int { limbs.isEmpty ? 0 : limbs.count * 32 - limbs.last!.leadingZeroBitCount }

    /// The value when it fits an `Int`.
    public var intValue: Int? {
        guard limbs.count <= 2 else { return nil }
        var m: UInt64 = 0
        for (i, limb) in limbs.enumerated() { m |= UInt64(limb) << (32 * UInt64(i)) }
        if isNegative { return m <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- m) : nil }
        return m <= UInt64(Int.max) ? Int(m) : nil
    }

    /// The negation.
    public static prefix func - (x: BigInt) -> BigInt { BigInt(limbs: x.limbs, negative: !x.isNegative) }

    /// The exact sum.
    public static func + (a: BigInt, b: BigInt) -> BigInt {
        if a.isNegative == b.isNegative {
            return BigInt(limbs: Magnitude.add(a.limbs, b.limbs), negative: a.isNegative)
        }
        // Different signs: subtract the smaller magnitude from the larger.
        if Magnitude.compare(a.limbs, b.limbs) >= 0 {
            return BigInt(limbs: Magnitude.subtract(a.limbs, b.limbs), negative: a.isNegative)
        }
        return BigInt(limbs: Magnitude.subtract(b.limbs, a.limbs), negative: b.isNegative)
    }

    /// The exact difference.
    public static func - (a: BigInt, b: BigInt) -> BigInt { a + (-b) }

    /// The exact product.
    public static func * (a: BigInt, b: BigInt) -> BigInt {
        BigInt(limbs: Magnitude.multiply(a.limbs, b.limbs), negative: a.isNegative != b.isNegative)
    }

    /// Truncating division (quotient rounded towards zero; the remainder has the sign of `self`),
    /// as Swift's `Int` does. `divisor` must not be zero.
    public func quotientAndRemainder(dividingBy divisor: BigInt) -> (quotient: BigInt, remainder: BigInt) {
        precondition(!divisor.isZero, "BigInt division by zero")
        let (q, r) = Magnitude.divide(limbs, divisor.limbs)
        return (BigInt(limbs: q, negative: isNegative != divisor.isNegative), BigInt(limbs: r, negative: isNegative))
    }

    /// The greatest common divisor of the absolute values (0 only when both are 0).
    public static func gcd(_ a: BigInt, _ b: BigInt) -> BigInt {
        var (x, y) = (a.magnitude, b.magnitude)
        while !y.isZero { (x, y) = (y, x.quotientAndRemainder(dividingBy: y).remainder) }
        return x
    }

    /// Numeric order.
    public static func < (a: BigInt, b: BigInt) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        let c = Magnitude.compare(a.limbs, b.limbs)
        return a.isNegative ? c > 0 : c < 0
    }

    /// Decimal, with a leading '-' when negative.
    public var description: String {
        if limbs.isEmpty { return "0" }
        var chunks: [UInt32] = []  // base 10^9, least significant first
        var rest = limbs
        while !rest.isEmpty {
            let (q, r) = Magnitude.divide(rest, by: 1_000_000_000)
            chunks.append(r)
            rest = q
        }
        var text = isNegative ? "-" : ""
        text += String(chunks.last!)
        for chunk in chunks.dropLast().reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }
}

/// Unsigned magnitudes: little-endian base-2^32 limbs.
enum Magnitude {
    static func trimmed(_ x: [UInt32]) -> [UInt32] {
        var x = x
        while x.last == 0 { x.removeLast() }
        return x
    }

    static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] {
            return a[i] < b[i] ? -1 : 1
        }
        return 0
    }

    static func add(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        let (long, short) = a.count >= b.count ? (a, b) : (b, a)
        var result = [UInt32](repeating: 0, count: long.count + 1)
        var carry: UInt64 = 0
        for i in 0..<long.count {
            let sum = UInt64(long[i]) + (i < short.count ? UInt64(short[i]) : 0) + carry
            result[i] = UInt32(truncatingIfNeeded: sum)
            carry = sum >> 32
        }
        result[long.count] = UInt32(carry)
        return trimmed(result)
    }

    /// a - b for a >= b.
    static func subtract(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result = a
        var borrow: Int64 = 0
        for i in 0..<a.count {
            var difference = Int64(a[i]) - (i < b.count ? Int64(b[i]) : 0) - borrow
            borrow = 0
            if difference < 0 { difference += 1 << 32; borrow = 1 }
            result[i] = UInt32(difference)
        }
        precondition(borrow == 0, "Magnitude.subtract: a < b")
        return trimmed(result)
    }

    static func multiply(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var result = [UInt32](repeating: 0, count: a.count + b.count)
        for i in 0..<a.count {
            var carry: UInt64 = 0
            let ai = UInt64(a[i])
            for j in 0..<b.count {
                // (2^32-1)^2 + 2 * (2^32-1) = 2^64 - 1: never overflows.
                let t = ai * UInt64(b[j]) + UInt64(result[i + j]) + carry
                result[i + j] = UInt32(truncatingIfNeeded: t)
                carry = t >> 32
            }
            result[i + b.count] = UInt32(carry)
        }
        return trimmed(result)
    }

    /// a * m + c.
    static func multiplyAdd(_ a: [UInt32], _ m: UInt32, _ c: UInt32) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: a.count + 1)
        var carry = UInt64(c)
        for i in 0..<a.count {
            let t = UInt64(a[i]) * UInt64(m) + carry
            result[i] = UInt32(truncatingIfNeeded: t)
            carry = t >> 32
        }
        result[a.count] = UInt32(carry)
        return trimmed(result)
    }

    /// Division by one limb: (quotient, remainder).
    static func divide(_ a: [UInt32], by d: UInt32) -> ([UInt32], UInt32) {
        precondition(d != 0)
        var quotient = [UInt32](repeating: 0, count: a.count)
        var remainder: UInt64 = 0
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            let current = remainder << 32 | UInt64(a[i])
            quotient[i] = UInt32(current / UInt64(d))
            remainder = current % UInt64(d)
        }
        return (trimmed(quotient), UInt32(remainder))
    }

    /// Knuth, TAOCP vol. 2, 4.3.1, algorithm D (as in Hacker's Delight `divmnu`): (quotient, remainder).
    static func divide(_ u: [UInt32], _ v: [UInt32]) -> ([UInt32], [UInt32]) {
        precondition(!v.isEmpty, "division by zero")
        if compare(u, v) < 0 { return ([], u) }
        if v.count == 1 {
            let (q, r) = divide(u, by: v[0])
            return (q, r == 0 ? [] : [r])
        }
        let n = v.count, m = u.count - n
        let shift = v[n - 1].leadingZeroBitCount
        let vn = shiftedLeft(v, by: shift, extraLimb: false)
        var un = shiftedLeft(u, by: shift, extraLimb: true)
        var q = [UInt32](repeating: 0, count: m + 1)
        let base: UInt64 = 1 << 32
        for j in stride(from: m, through: 0, by: -1) {
            let numerator = UInt64(un[j + n]) << 32 | UInt64(un[j + n - 1])
            var qhat = numerator / UInt64(vn[n - 1])
            var rhat = numerator % UInt64(vn[n - 1])
            while qhat >= base || qhat * UInt64(vn[n - 2]) > (rhat << 32 | UInt64(un[j + n - 2])) {
                qhat -= 1
                rhat += UInt64(vn[n - 1])
                if rhat >= base { break }
            }
            // Multiply and subtract qhat * vn from un[j...j+n].
            var k: Int64 = 0
            for i in 0..<n {
                let p = qhat * UInt64(vn[i])
                let t = Int64(un[i + j]) - k - Int64(p & 0xFFFF_FFFF)
                un[i + j] = UInt32(truncatingIfNeeded: t)
                k = Int64(p >> 32) - (t >> 32)
            }
            let t = Int64(un[j + n]) - k
            un[j + n] = UInt32(truncatingIfNeeded: t)
            if t < 0 {
                // Subtracted one time too many: add vn back.
                qhat -= 1
                var carry: UInt64 = 0
                for i in 0..<n {
                    let sum = UInt64(un[i + j]) + UInt64(vn[i]) + carry
                    un[i + j] = UInt32(truncatingIfNeeded: sum)
                    carry = sum >> 32
                }
                un[j + n] = UInt32(truncatingIfNeeded: UInt64(un[j + n]) + carry)
            }
            q[j] = UInt32(qhat)  // traps rather than giving a wrong digit
        }
        var r = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            r[i] = shift == 0 ? un[i] : (un[i] >> shift | un[i + 1] << (32 - shift))
        }
        return (trimmed(q), trimmed(r))
    }

    private static func shiftedLeft(_ x: [UInt32], by shift: Int, extraLimb: Bool) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: x.count + (extraLimb ? 1 : 0))
        for i in 0..<x.count {
            result[i] |= shift == 0 ? x[i] : x[i] << shift
            if shift > 0, i + 1 < result.count { result[i + 1] = x[i] >> (32 - shift) }
        }
        return result
    }
}
