import Testing
@testable import OCRClient
@testable import OCRMath

/// `expression = value` as MathSolver prints it, or the error's kind.
private func answer(_ text: String) -> String {
    do {
        let value = try MathExpression(text).evaluate()
        return "\(value)"
    } catch {
        return "error: \(error.kind)"
    }
}

@Suite struct MathTokenizerTests {
    @Test func tokensWithPositions() throws {
        let tokens = try MathTokenizer.tokens("(12 + 3.25)*-4^2/ 7")
        #expect(tokens.map(\.text) == ["(", "12", "+", "3.25", ")", "*", "-", "4", "^", "2", "/", "7"])
        #expect(tokens.map(\.position) == [0, 1, 4, 6, 10, 11, 12, 13, 14, 15, 16, 18])
        #expect(tokens[3].kind == .number(try Rational(BigInt(13), BigInt(4))))
    }

    @Test func decimalsNeedDigitsOnBothSides() {
        for bad in [".5", "5.", "1+.2", "12./5", "1.2.3", "."] {
            #expect(throws: MathError.self, "\(bad)") { try MathTokenizer.tokens(bad) }
        }
        #expect((try? MathTokenizer.tokens("0.5"))?.count == 1)
    }

    @Test func unknownCharactersAreNamedWithTheirPosition() {
        do {
            _ = try MathTokenizer.tokens("1 + a")
            Issue.record("no error")
        } catch {
            #expect(error.kind == .invalidCharacter)
            #expect(error.position == 4)
            #expect(error.description == "invalid expression '1 + a': unexpected 'a' at position 5")
        }
    }
}

@Suite struct MathParserTests {
    @Test func precedenceAndAssociativityInRPN() throws {
        #expect(try MathExpression("1+2*3").rpn == "1 2 3 * +")
        #expect(try MathExpression("(1+2)*3").rpn == "1 2 + 3 *")
        #expect(try MathExpression("8-3-2").rpn == "8 3 - 2 -")          // left associative
        #expect(try MathExpression("8/4/2").rpn == "8 4 / 2 /")
        #expect(try MathExpression("2^3^2").rpn == "2 3 2 ^ ^")          // right associative
        #expect(try MathExpression("-2^2").rpn == "2 2 ^ neg")           // ^ binds tighter than unary minus
        #expect(try MathExpression("2^-1").rpn == "2 1 neg ^")
        #expect(try MathExpression("3*-2").rpn == "3 2 neg *")
        #expect(try MathExpression("--2").rpn == "2 neg neg")
        #expect(try MathExpression("1.5+0.25").rpn == "1.5 0.25 +")
    }

    @Test func garbageIsASyntaxErrorWithAPosition() {
        let cases: [(String, MathError.Kind)] = [
            ("", .empty), ("   ", .empty), ("1+", .syntax), ("*3", .syntax), ("3+*4", .syntax), ("(1+2", .syntax),
            ("1+2)", .syntax), ("()", .syntax), ("2(3)", .syntax), ("(2)3", .syntax), ("1 2", .syntax),
            ("4//2", .syntax), ("^2", .syntax), ("2^", .syntax), ("+5", .syntax), ("1+=2", .invalidCharacter),
            ("12a", .invalidCharacter), ("ǃ", .invalidCharacter), ("1,5", .invalidCharacter),
        ]
        for (text, kind) in cases {
            #expect(throws: MathError.self, "\(text)") { try MathExpression(text) }
            do { _ = try MathExpression(text) } catch { #expect(error.kind == kind, "\(text): \(error)") }
        }
        do { _ = try MathExpression("3+*4") } catch {
            #expect(error.description == "invalid expression '3+*4': '*' at position 3 has no left operand")
            #expect(error.position == 2)
        }
        do { _ = try MathExpression("(1+2") } catch {
            #expect(error.description == "invalid expression '(1+2': '(' at position 1 is never closed")
        }
    }

    @Test func deepParenthesesNeitherOverflowNorMisparse() throws {
        let depth = 5_000
        let text = String(repeating: "(", count: depth) + "1+1" + String(repeating: ")", count: depth) + "*3"
        #expect(try MathExpression(text).evaluate() == Rational(6))
        let unary = String(repeating: "-", count: 1_001) + "7"
        #expect(try MathExpression(unary).evaluate() == Rational(-7))
        let unbalanced = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth - 1)
        #expect(throws: MathError.self) { try MathExpression(unbalanced) }
    }
}

@Suite struct MathEvaluatorTests {
    @Test func arithmetic() {
        #expect(answer("(1+2)*3/5") == "1.8")
        #expect(answer("1+2*3") == "7")
        #expect(answer("8-3-2") == "3")
        #expect(answer("2^3^2") == "512")
        #expect(answer("(2^3)^2") == "64")
        #expect(answer("-2^2") == "-4")
        #expect(answer("(-2)^2") == "4")
        #expect(answer("2^-2") == "0.25")
        #expect(answer("(-2)^3") == "-8")
        #expect(answer("(-1)^1001") == "-1")
        #expect(answer("1^123456789012345678901234567890") == "1")
        #expect(answer("0^0") == "1")
        #expect(answer("3*-2") == "-6")
        #expect(answer("-(4-9)") == "5")
        #expect(answer("0.1+0.2") == "0.3")     // exact, unlike binary floating point
        #expect(answer("10/4") == "2.5")
        #expect(answer("1/8") == "0.125")
        #expect(answer("-1/8") == "-0.125")
        #expect(answer("7-7") == "0")
    }

    @Test func nonTerminatingFractionsAreExact() {
        #expect(answer("1/3") == "1/3 (0.3333...)")
        #expect(answer("2/3+1") == "5/3 (1.6666...)")
        #expect(answer("-1/3") == "-1/3 (-0.3333...)")
        #expect(answer("22/7") == "22/7 (3.1428...)")
        #expect(answer("100/3") == "100/3 (33.3333...)")
        #expect(answer("1/3000") == "1/3000 (0.0003333...)")
        #expect(answer("1/3*3") == "1")
        #expect(answer("2/4/3") == "1/6 (0.1666...)")
    }

    @Test func hugeNumbersAreExact() {
        #expect(answer("99999999999999999999*99999999999999999999") == "9999999999999999999800000000000000000001")
        #expect(answer("2^64") == "18446744073709551616")
        #expect(answer("2^200-2^200+1") == "1")
        #expect(answer("123456789012345678901234567890/10") == "12345678901234567890123456789")
        #expect(answer("1/2^70") == "0.0000000000000000000008470329472543003390683225006796419620513916015625")
        #expect(answer("2^-70") == answer("1/2^70"))
        #expect(answer("(10^30+1)/(10^30+1)") == "1")
        #expect(answer("10^40/10^38") == "100")
        // Beyond Int64 in the middle, small at the end: no overflow, no rounding.
        #expect(answer("9223372036854775807+1-1") == "9223372036854775807")
        #expect(answer("-9223372036854775808-1") == "-9223372036854775809")
    }

    @Test func tooLargeIsAnErrorNeverAWrongAnswer() {
        #expect(answer("2^100000") == "error: too large")
        #expect(answer("10^10^10") == "error: too large")
        #expect(answer("2^16385") == "error: too large")
        #expect(answer("(1/2)^(-100000)") == "error: too large")
        #expect(answer("2^16000") != "error: too large")
        #expect(answer("2^0.5") == "error: non-integer exponent")
    }

    @Test func divisionByZero() {
        for text in ["1/0", "1/(2-2)", "0/0", "5/(1/2-0.5)", "0^-1", "(3-3)^-2"] {
            #expect(answer(text) == "error: division by zero", "\(text)")
        }
        do { _ = try MathExpression("1/(2-2)").evaluate() } catch {
            #expect(error.description == "division by zero in '1/(2-2)': 1 / 0")
        }
        #expect(answer("0/5") == "0")
    }
}

@Suite struct BigIntTests {
    @Test func parseAndPrint() {
        for text in ["0", "1", "-1", "4294967295", "4294967296", "-18446744073709551616", "123456789012345678901234567890"] {
            #expect(BigInt(text)?.description == text)
        }
        #expect(BigInt("-0")?.description == "0")
        #expect(BigInt("") == nil && BigInt("-") == nil && BigInt("1a") == nil && BigInt("+1") == nil)
        #expect(BigInt(Int.min).description == "\(Int.min)")
        #expect(BigInt(Int.min).intValue == Int.min && BigInt(Int.max).intValue == Int.max)
        #expect((BigInt(Int.max) + .one).intValue == nil)
    }

    /// q * d + r == n and |r| < |d| with r carrying n's sign, on pseudo-random multi-limb numbers.
    @Test func divisionIdentityHolds() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed }
        func number(limbs: Int) -> BigInt {
            var value = BigInt.zero
            let base = BigInt(1 << 32)
            for _ in 0..<limbs {
                let r = next()
                // Runs of 0xFFFFFFFF and 0 limbs stress the qhat correction of algorithm D.
                let limb: Int = switch r % 5 { case 0: 0xFFFF_FFFF; case 1: 0; default: Int(r >> 32) }
                value = value * base + BigInt(limb)
            }
            return next() % 2 == 0 ? value : -value
        }
        for _ in 0..<400 {
            let n = number(limbs: Int(next() % 9) + 1)
            var d = number(limbs: Int(next() % 5) + 1)
            if d.isZero { d = .one }
            let (q, r) = n.quotientAndRemainder(dividingBy: d)
            #expect(q * d + r == n)
            #expect(r.magnitude < d.magnitude)
            #expect(r.isZero || r.isNegative == n.isNegative)
        }
        // Known values.
        let big = BigInt("340282366920938463463374607431768211456")!  // 2^128
        #expect(big.quotientAndRemainder(dividingBy: BigInt("18446744073709551617")!).quotient.description == "18446744073709551615")
        #expect(BigInt.gcd(BigInt(12), BigInt(-18)) == BigInt(6))
    }

    @Test func ordering() {
        let values = ["-100", "-5", "0", "3", "4294967296"].map { BigInt($0)! }
        #expect(values == values.sorted())
        #expect(values.shuffled().sorted() == values)
    }
}

@Suite struct MathOCRNormalizerTests {
    @Test func confusions() {
        let cases: [(String, String)] = [
            ("(1 + 2) × 3 ÷ 5", "(1+2)*3/5"),
            ("6x7", "6*7"), ("6 X 7", "6*7"),
            ("12 − 7", "12-7"), ("12—7", "12-7"), ("12–7", "12-7"),
            ("—-5+3", "-5+3"), ("10-—4", "10-4"), ("7x8-—56", "7*8-56"),
            ("1O5", "105"), ("1o0", "100"), ("2l3", "213"), ("4I2", "412"), ("1OO1", "1001"), ("1|1", "111"),
            ("O5", "O5"), ("5O", "5O"), ("l+1", "l+1"), ("2l", "2l"),   // only between digits
            ("1+1=", "1+1"), ("1+1 = ?", "1+1"),
        ]
        for (raw, normalized) in cases {
            #expect(MathOCRNormalizer.normalize(raw) == normalized, "\(raw)")
        }
    }
}
