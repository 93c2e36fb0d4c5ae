/// An exact fraction of two `BigInt`s, always in lowest terms with a positive denominator.
///
/// Arithmetic never rounds: a result whose numerator or denominator would need more than
/// `maximumBitWidth` bits is a `MathError.tooLarge`, never a wrong answer.
public struct Rational: Sendable, Hashable, CustomStringConvertible {
    /// Numerator in lowest terms, with the sign.
    public let numerator: BigInt
    /// Always positive.
    public let denominator: BigInt

    /// Largest numerator or denominator, in bits (about 4,900 decimal digits).
    public static let maximumBitWidth = 16_384

    /// 0.
    public static let zero = Rational(checkedNumerator: .zero, denominator: .one)
    /// 1.
    public static let one = Rational(checkedNumerator: .one, denominator: .one)

    private init(checkedNumerator: BigInt, denominator: BigInt) {
        self.numerator = checkedNumerator
        self.denominator = denominator
    }

    /// The integer `value`.
    public init(_ value: Int) {
        self.init(checkedNumerator: BigInt(value), denominator: .one)
    }

    /// The integer `value`.
    public init(_ value: BigInt) {
        self.init(checkedNumerator: value, denominator: .one)
    }

    /// numerator / denominator in lowest terms.
    public init(_ numerator: BigInt, _ denominator: BigInt) throws(MathError) {
        guard !denominator.isZero else { throw MathError(.divisionByZero, "") }
        let divisor = BigInt.gcd(numerator, denominator)
        var n = divisor.isZero ? numerator : numerator.quotientAndRemainder(dividingBy: divisor).quotient
        var d = divisor.isZero ? denominator : denominator.quotientAndRemainder(dividingBy: divisor).quotient
        if d.isNegative { (n, d) = (-n, -d) }
        guard n.bitWidth <= Self.maximumBitWidth, d.bitWidth <= Self.maximumBitWidth else {
            throw MathError(.tooLarge, "a number needs more than \(Self.maximumBitWidth) bits")
        }
        self.init(checkedNumerator: n, denominator: d)
    }

    /// Parses a decimal literal: digits, optionally '.' and digits ("12", "3.25"). Nil otherwise.
    public init?(decimal text: Substring) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = BigInt(parts[0]), !parts[0].hasPrefix("-") else { return nil }
        guard parts.count == 2 else {
            guard let value = try? Rational(whole, .one) else { return nil }
            self = value
            return
        }
        guard let fraction = BigInt(parts[1]), !parts[1].hasPrefix("-") else { return nil }
        var scale = BigInt.one
        let ten = BigInt(10)
        for _ in parts[1] { scale = scale * ten }
        guard let value = try? Rational(whole * scale + fraction, scale) else { return nil }
        self = value
    }

    /// Whether the denominator is 1.
    public var isInteger: Bool { denominator == .one }
    /// Whether this is 0.
    public var isZero: Bool { numerator.isZero }

    /// The negation.
    public static prefix func - (x: Rational) -> Rational {
        Rational(checkedNumerator: -x.numerator, denominator: x.denominator)
    }

    /// The exact sum.
    public static func + (a: Rational, b: Rational) throws(MathError) -> Rational {
        try Rational(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
    }

    /// The exact difference.
    public static func - (a: Rational, b: Rational) throws(MathError) -> Rational {
        try a + (-b)
    }

    /// The exact product.
    public static func * (a: Rational, b: Rational) throws(MathError) -> Rational {
        try Rational(a.numerator * b.numerator, a.denominator * b.denominator)
    }

    /// The exact quotient; throws a `MathError` for division by zero.
    public static func / (a: Rational, b: Rational) throws(MathError) -> Rational {
        guard !b.isZero else { throw MathError(.divisionByZero, "") }
        return try Rational(a.numerator * b.denominator, a.denominator * b.numerator)
    }

    /// `self` to an integer power. 0^0 is 1; 0 to a negative power is a division by zero.
    /// Refuses (`tooLarge`) before computing when the result would exceed `maximumBitWidth`.
    public func power(_ exponent: Rational) throws(MathError) -> Rational {
        guard exponent.isInteger else {
            throw MathError(.nonIntegerExponent, "the exponent \(exponent) is not an integer")
        }
        if exponent.isZero { return .one }
        if isZero {
            guard !exponent.numerator.isNegative else { throw MathError(.divisionByZero, "0 to a negative power") }
            return .zero
        }
        // ±1 to any power stays small whatever the exponent.
        if numerator.magnitude == .one, denominator == .one {
            let odd = exponent.numerator.quotientAndRemainder(dividingBy: BigInt(2)).remainder.isZero == false
            return numerator.isNegative && odd ? -Rational.one : .one
        }
        let bits = max(numerator.bitWidth, denominator.bitWidth)
        guard let n = exponent.numerator.magnitude.intValue, n <= Self.maximumBitWidth,
              (bits - 1) * n <= Self.maximumBitWidth else {
            throw MathError(.tooLarge, "the power has more than \(Self.maximumBitWidth) bits")
        }
        var result = Rational.one, base = self, k = n
        while k > 0 {  // square and multiply
            if k & 1 == 1 { result = try result * base }
            k >>= 1
            if k > 0 { base = try base * base }
        }
        return exponent.numerator.isNegative ? try .one / result : result
    }

    /// The exact decimal expansion when the denominator has no prime factor but 2 and 5
    /// ("1.8", "-0.125", "42"); nil when the decimal does not terminate.
    public var terminatingDecimal: String? {
        var d = denominator
        var twos = 0, fives = 0
        let two = BigInt(2), five = BigInt(5)
        while true {
            let (q, r) = d.quotientAndRemainder(dividingBy: two)
            guard r.isZero else { break }
            d = q; twos += 1
        }
        while true {
            let (q, r) = d.quotientAndRemainder(dividingBy: five)
            guard r.isZero else { break }
            d = q; fives += 1
        }
        guard d == .one else { return nil }
        let places = max(twos, fives)
        return decimal(places: places)
    }

    /// The value truncated towards zero to `places` decimal places (no "..." added).
    func decimal(places: Int) -> String {
        let absolute = numerator.magnitude
        let (whole, rest) = absolute.quotientAndRemainder(dividingBy: denominator)
        var text = (numerator.isNegative ? "-" : "") + whole.description
        guard places > 0 else { return text }
        var digits = ""
        var remainder = rest
        let ten = BigInt(10)
        for _ in 0..<places {
            let (digit, next) = (remainder * ten).quotientAndRemainder(dividingBy: denominator)
            digits += digit.description
            remainder = next
        }
        text += "." + digits
        return text
    }

    /// Integers as integers ("42"), terminating fractions as exact decimals ("1.8"), others as
    /// the exact fraction followed by its decimal expansion truncated to four decimal places,
    /// or to four significant digits when smaller than 1: "1/3 (0.3333...)", "-1/3000 (-0.0003333...)".
    public var description: String {
        if isInteger { return numerator.description }
        if let exact = terminatingDecimal { return exact }
        // Leading zeros after the point when |value| < 1, so four significant digits show.
        var places = 4
        if numerator.magnitude < denominator {
            var scaled = numerator.magnitude * BigInt(10)
            var zeros = 0
            while scaled < denominator { scaled = scaled * BigInt(10); zeros += 1 }
            places = zeros + 4
        }
        return "\(numerator)/\(denominator) (\(decimal(places: places))...)"
    }
}
