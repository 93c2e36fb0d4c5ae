/// Why an arithmetic expression has no value: it does not parse, or its value is undefined or
/// too large to compute exactly.
public struct MathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong. A struct over a private enum, so kinds can be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case empty, invalidCharacter, syntax, divisionByZero, nonIntegerExponent, tooLarge
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// Nothing to evaluate.
        public static let empty = Kind(.empty)
        /// A character the grammar does not know.
        public static let invalidCharacter = Kind(.invalidCharacter)
        /// The tokens do not form an expression (missing operand, unbalanced parentheses...).
        public static let syntax = Kind(.syntax)
        /// Division by zero, or zero to a negative power.
        public static let divisionByZero = Kind(.divisionByZero)
        /// `a ^ b` with a non-integer `b` has no exact rational value in general.
        public static let nonIntegerExponent = Kind(.nonIntegerExponent)
        /// A number or result beyond `Rational.maximumBitWidth`: refused rather than rounded.
        public static let tooLarge = Kind(.tooLarge)

        /// The message, with the position and the expression when known.
        public var description: String {
            switch value {
            case .empty: "empty"
            case .invalidCharacter: "invalid character"
            case .syntax: "syntax error"
            case .divisionByZero: "division by zero"
            case .nonIntegerExponent: "non-integer exponent"
            case .tooLarge: "too large"
            }
        }
    }

    /// What went wrong.
    public let kind: Kind
    /// What happened, for people.
    public let message: String
    /// Offset (in characters) into the expression where the problem was found, when it has one.
    public let position: Int?
    /// The expression concerned.
    public var expression: String

    /// An error of `kind`; `position` is a character offset into `expression`.
    public init(_ kind: Kind, _ message: String, position: Int? = nil, expression: String = "") {
        self.kind = kind
        self.message = message
        self.position = position
        self.expression = expression
    }

    /// True for errors in the text itself (as opposed to undefined or oversized values).
    public var isInvalidExpression: Bool { kind == .empty || kind == .invalidCharacter || kind == .syntax }

    /// The message, with the position and the expression when known.
    public var description: String {
        let quoted = expression.isEmpty ? "" : " '\(expression)'"
        switch kind {
        case .divisionByZero: return "division by zero in\(quoted)" + (message.isEmpty ? "" : ": \(message)")
        case .empty, .invalidCharacter, .syntax: return "invalid expression\(quoted): \(message)"
        default: return "cannot evaluate\(quoted): \(message)"
        }
    }
}
