/// An arithmetic expression checked against the grammar and compiled to reverse Polish notation
/// by Dijkstra's shunting-yard algorithm; evaluated with exact rational arithmetic.
///
/// Grammar (precedence from low to high; `^` binds tighter than unary minus, so `-2^2` is -4,
/// and `2^-1` is allowed):
/// ```
/// expression := term (('+' | '-') term)*            left associative
/// term       := unary (('*' | '/') unary)*           left associative
/// unary      := '-' unary | power
/// power      := primary ('^' unary)?                 right associative: 2^3^2 = 2^9
/// primary    := number | '(' expression ')'
/// number     := digit+ ('.' digit+)?
/// ```
/// Parsing and evaluation are iterative, so deep nesting cannot overflow the stack.
public struct MathExpression: Sendable, Equatable, CustomStringConvertible {
    /// One step of the RPN program.
    public enum Step: Sendable, Equatable {
        case push(Rational)
        case add, subtract, multiply, divide, power, negate
    }

    /// The text that was parsed.
    public let text: String
    /// The expression in reverse Polish notation.
    public let steps: [Step]

    /// Parses `text` (after OCR normalisation); throws a `MathError` naming the position for invalid input.
    public init(_ text: String) throws(MathError) {
        self.text = text
        self.steps = try Self.compile(MathTokenizer.tokens(text), text: text)
    }

    /// The RPN program as text: `1 2 + 3 *`, with `neg` for unary minus.
    public var rpn: String {
        steps.map { step in
            switch step {
            case .push(let value): value.terminatingDecimal ?? "\(value.numerator)/\(value.denominator)"
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            case .divide: "/"
            case .power: "^"
            case .negate: "neg"
            }
        }.joined(separator: " ")
    }

    /// The expression as parsed.
    public var description: String { text }

    /// Runs the program. Division by zero, a non-integer exponent and a too-large result are errors.
    public func evaluate() throws(MathError) -> Rational {
        var stack: [Rational] = []
        stack.reserveCapacity(steps.count)
        do throws(MathError) {
            for step in steps {
                switch step {
                case .push(let value): stack.append(value)
                case .negate: stack.append(-stack.removeLast())
                default:
                    let b = stack.removeLast(), a = stack.removeLast()
                    switch step {
                    case .add: stack.append(try a + b)
                    case .subtract: stack.append(try a - b)
                    case .multiply: stack.append(try a * b)
                    case .divide:
                        guard !b.isZero else { throw MathError(.divisionByZero, "\(a) / 0") }
                        stack.append(try a / b)
                    case .power: stack.append(try a.power(b))
                    case .push, .negate: break
                    }
                }
            }
        } catch {
            var error = error
            error.expression = text
            throw error
        }
        return stack[0]  // compile guarantees exactly one value
    }

    // MARK: Shunting-yard

    private enum Operator: Equatable {
        case add, subtract, multiply, divide, power, negate, parenthesis

        var precedence: Int {
            switch self {
            case .parenthesis: 0
            case .add, .subtract: 1
            case .multiply, .divide: 2
            case .negate: 3
            case .power: 4
            }
        }
        var rightAssociative: Bool { self == .power }

        var step: Step {
            switch self {
            case .add: .add
            case .subtract: .subtract
            case .multiply: .multiply
            case .divide: .divide
            case .power: .power
            case .negate: .negate
            case .parenthesis: preconditionFailure("parentheses never reach the output")
            }
        }
    }

    private static func compile(_ tokens: [MathToken], text: String) throws(MathError) -> [Step] {
        guard !tokens.isEmpty else { throw MathError(.empty, "no expression", expression: text) }
        var output: [Step] = []
        var stack: [(op: Operator, position: Int)] = []
        // The grammar as a two-state machine: expecting an operand (a number, '(' or a unary
        // minus) or an operator (binary operator or ')').
        var expectOperand = true
        func fail(_ message: String, _ token: MathToken) -> MathError {
            MathError(.syntax, message, position: token.position, expression: text)
        }
        for token in tokens {
            if expectOperand {
                switch token.kind {
                case .number(let value):
                    output.append(.push(value))
                    expectOperand = false
                case .leftParenthesis:
                    stack.append((.parenthesis, token.position))
                case .minus:
                    stack.append((.negate, token.position))  // prefix: pops nothing
                case .rightParenthesis:
                    throw fail("')' at position \(token.position + 1) closes an empty or unfinished group", token)
                case .plus, .times, .divide, .power:
                    throw fail("'\(token.text)' at position \(token.position + 1) has no left operand", token)
                }
            } else {
                let op: Operator
                switch token.kind {
                case .plus: op = .add
                case .minus: op = .subtract
                case .times: op = .multiply
                case .divide: op = .divide
                case .power: op = .power
                case .rightParenthesis:
                    while let top = stack.last, top.op != .parenthesis {
                        output.append(top.op.step)
                        stack.removeLast()
                    }
                    guard stack.popLast() != nil else {
                        throw fail("')' at position \(token.position + 1) has no matching '('", token)
                    }
                    continue
                case .number, .leftParenthesis:
                    throw fail("missing operator before '\(token.text)' at position \(token.position + 1)", token)
                }
                while let top = stack.last, top.op != .parenthesis,
                      top.op.precedence > op.precedence || (top.op.precedence == op.precedence && !op.rightAssociative) {
                    output.append(top.op.step)
                    stack.removeLast()
                }
                stack.append((op, token.position))
                expectOperand = true
            }
        }
        if expectOperand {
            let last = tokens.last!
            throw fail("the expression ends after '\(last.text)'", last)
        }
        while let top = stack.popLast() {
            guard top.op != .parenthesis else {
                throw MathError(.syntax, "'(' at position \(top.position + 1) is never closed", position: top.position, expression: text)
            }
            output.append(top.op.step)
        }
        return output
    }
}
