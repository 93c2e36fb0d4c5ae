/// A token of an arithmetic expression and where it starts (a character offset).
public struct MathToken: Sendable, Equatable {
    /// What a token is.
    public enum Kind: Sendable, Equatable {
        case number(Rational)
        case plus, minus, times, divide, power
        case leftParenthesis, rightParenthesis
    }

    /// What the token is.
    public let kind: Kind
    /// The characters of the token, as written.
    public let text: String
    /// Offset of the first character, in characters from the start of the expression.
    public let position: Int
}

/// Splits ASCII arithmetic into tokens: decimal numbers (`12`, `3.25`: digits on both sides of
/// the point), `+ - * / ^`, parentheses; spaces are skipped. Anything else is an error naming the
/// character and its position.
public enum MathTokenizer {
    /// The tokens of `text`; throws for a character that is no part of an expression.
    public static func tokens(_ text: String) throws(MathError) -> [MathToken] {
        var tokens: [MathToken] = []
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == " " || c == "\t" { i += 1; continue }
            let kind: MathToken.Kind?
            switch c {
            case "+": kind = .plus
            case "-": kind = .minus
            case "*": kind = .times
            case "/": kind = .divide
            case "^": kind = .power
            case "(": kind = .leftParenthesis
            case ")": kind = .rightParenthesis
            default: kind = nil
            }
            if let kind {
                tokens.append(MathToken(kind: kind, text: String(c), position: i))
                i += 1
                continue
            }
            guard isDigit(c) || c == "." else {
                throw MathError(.invalidCharacter, "unexpected '\(c)' at position \(i + 1)", position: i, expression: text)
            }
            // A number: digits, then optionally '.' and digits.
            let start = i
            while i < characters.count, isDigit(characters[i]) { i += 1 }
            if i < characters.count, characters[i] == "." {
                i += 1
                let fractionStart = i
                while i < characters.count, isDigit(characters[i]) { i += 1 }
                guard i > fractionStart, fractionStart - 1 > start else {
                    throw MathError(.syntax, "a decimal point needs digits on both sides, at position \(fractionStart)",
                                    position: fractionStart - 1, expression: text)
                }
                if i < characters.count, characters[i] == "." {
                    throw MathError(.syntax, "a number with two decimal points at position \(start + 1)", position: i, expression: text)
                }
            }
            let literal = String(characters[start..<i])
            guard let value = Rational(decimal: literal[...]) else {
                throw MathError(.tooLarge, "the number at position \(start + 1) has more than \(Rational.maximumBitWidth) bits",
                                position: start, expression: text)
            }
            tokens.append(MathToken(kind: .number(value), text: literal, position: start))
        }
        return tokens
    }

    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
}
