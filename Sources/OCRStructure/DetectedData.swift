import OCRBasics

/// A piece of data found in a page's text, as Vision's `DocumentObservation` detects it: what it
/// is, the text as read, and the box of its words.
public struct DetectedData: Sendable, Equatable {
    /// What kind of data.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A calendar date (`2014/12/03`, `3 December 2014`, `Dec. 3, 2014`).
        case date
        /// An amount of money with its currency (`$1,240.00`, `EUR 12,50`, `12,50 €`).
        case money
        /// A telephone number (`(405) 680-3701`, `+44 20 7946 0958`).
        case phoneNumber
        /// An e-mail address.
        case emailAddress
        /// A web address (`https://...`, `www.example.org`).
        case link
    }

    /// What kind of data.
    public var kind: Kind
    /// The words as read, joined with spaces (surrounding punctuation left out).
    public var text: String
    /// The box of its words.
    public var box: PageBox

    /// Data of `kind` read as `text` at `box`.
    public init(kind: Kind, text: String, box: PageBox) {
        self.kind = kind
        self.text = text
        self.box = box
    }
}

/// Finds dates, amounts, phone numbers, e-mail addresses and links in a page's lines, word by
/// word and across up to four neighbouring words of a line. Patterns, not a model: what they
/// match is unambiguous in form (a currency sign, an `@`, a month's name), and a run of digits
/// alone is never taken for anything.
enum DataDetection {
    static func find(in page: PageLines) -> [DetectedData] {
        var found: [DetectedData] = []
        for line in page.lines {
            let words = line.words.map { (text: trimmed($0.text), box: $0.box, read: $0.text) }
            var index = 0
            while index < words.count {
                var matched = false
                // The longest run of words from here that is one piece of data.
                for length in stride(from: min(5, words.count - index), through: 1, by: -1) {
                    let run = words[index..<(index + length)]
                    guard !run.contains(where: { $0.text.isEmpty }) else { continue }
                    // Inside the run the words are as read ("Dec. 17, 2014"); at its ends without
                    // the sentence's punctuation.
                    let text = run.count == 1 ? run.first!.text
                        : ([leadingTrimmed(run.first!.read)] + run.dropFirst().dropLast().map(\.read) + [trailingTrimmed(run.last!.read)]).joined(separator: " ")
                    if let kind = kind(of: text) {
                        found.append(DetectedData(kind: kind, text: text, box: PageBox.union(run.map(\.box))!))
                        index += length
                        matched = true
                        break
                    }
                }
                if !matched { index += 1 }
            }
        }
        return found
    }

    /// The word without the punctuation of the sentence around it (a closing comma or full
    /// stop, quotes, a parenthesis it does not open or close itself).
    static func trimmed(_ word: String) -> String {
        leadingTrimmed(trailingTrimmed(word))
    }

    static func trailingTrimmed(_ word: String) -> String {
        var text = Substring(word)
        while let last = text.last, ",;:!?\"'”’.".contains(last) || last == ")" && !text.contains("(") { text = text.dropLast() }
        return String(text)
    }

    static func leadingTrimmed(_ word: String) -> String {
        var text = Substring(word)
        while let first = text.first, "\"'“‘".contains(first) || first == "(" && !text.contains(")") { text = text.dropFirst() }
        return String(text)
    }

    static func kind(of text: String) -> DetectedData.Kind? {
        if isEmail(text) { return .emailAddress }
        if isLink(text) { return .link }
        if isMoney(text) { return .money }
        if isDate(text) { return .date }
        if isPhone(text) { return .phoneNumber }
        return nil
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !text.contains(" "), !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || $0.isNumber || "._%+-".contains($0) }) else { return false }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return domain.count >= 2 && domain.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }
            && domain.last!.count >= 2 && domain.last!.allSatisfy(\.isLetter)
    }

    static let topLevelDomains: Set<String> = ["com", "org", "net", "gov", "edu", "int", "mil", "io", "info", "biz", "eu", "uk", "de", "fr", "us", "ca", "au", "in", "jp", "nl", "ch", "it", "es"]

    static func isLink(_ text: String) -> Bool {
        guard !text.contains(" ") else { return false }
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return lower.count > 10 }
        let hostPart = lower.split(separator: "/", maxSplits: 1).first.map(String.init) ?? lower
        let labels = hostPart.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }) else { return false }
        return lower.hasPrefix("www.") || topLevelDomains.contains(String(labels.last!)) && labels.dropLast().contains { $0.contains(where: \.isLetter) }
    }

    static let currencySigns: Set<Character> = ["$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪", "₫", "₱", "₦"]
    static let currencyCodes: Set<String> = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR", "SEK", "NOK", "DKK", "PLN", "CZK", "Rs.", "Rs"]

    /// A number (digits with thousands separators and decimals, a sign, parentheses for a
    /// negative) with a currency sign or code before or after it.
    static func isMoney(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        guard (1...2).contains(words.count) else { return false }
        var number = ""
        var currency = false
        if words.count == 2 {
            if currencyCodes.contains(words[0]) || words[0].count == 1 && currencySigns.contains(words[0].first!) {
                number = words[1]
            } else if currencyCodes.contains(words[1]) || words[1].count == 1 && currencySigns.contains(words[1].first!) {
                number = words[0]
            } else {
                return false
            }
            currency = true
        } else {
            var word = Substring(words[0])
            if word.first == "(" && word.last == ")" { word = word.dropFirst().dropLast() }
            if word.first == "-" || word.first == "+" || word.first == "−" { word = word.dropFirst() }
            if let first = word.first, currencySigns.contains(first) {
                word = word.dropFirst()
                currency = true
            } else if let last = word.last, currencySigns.contains(last) {
                word = word.dropLast()
                currency = true
            }
            number = String(word)
        }
        return currency && isAmount(number)
    }

    static func isAmount(_ text: String) -> Bool {
        var text = Substring(text)
        if text.first == "(" && text.last == ")" { text = text.dropFirst().dropLast() }
        if text.first == "-" || text.first == "−" { text = text.dropFirst() }
        guard let first = text.first, first.isASCIIDigit, let last = text.last, last.isASCIIDigit || last == "-" else { return false }
        return text.allSatisfy { $0.isASCIIDigit || $0 == "," || $0 == "." || $0 == "'" || $0 == "-" } && !text.contains(",,") && !text.contains("..")
    }

    /// `2014/12/03`, `12/03/2014`, `3.12.2014`, `2014-12-03`, `03-12-14`; `December 3, 2014`,
    /// `3 December 2014`, `Dec. 3, 2014`, `3 Dec 2014`.
    static func isDate(_ text: String) -> Bool {
        let words = text.split(separator: " ").map { String($0) }
        if words.count == 1 {
            for separator: Character in ["/", "-", "."] {
                let parts = words[0].split(separator: separator, omittingEmptySubsequences: false)
                guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { continue }
                let numbers = parts.map { Int($0)! }
                let lengths = parts.map(\.count)
                if lengths[0] == 4 { return (1...12).contains(numbers[1]) && (1...31).contains(numbers[2]) && lengths[1] <= 2 && lengths[2] <= 2 }
                if lengths[2] == 4 || lengths[2] == 2, lengths[0] <= 2, lengths[1] <= 2 {
                    let (a, b) = (numbers[0], numbers[1])
                    return (1...31).contains(a) && (1...31).contains(b) && (a <= 12 || b <= 12)
                }
            }
            return false
        }
        guard (2...3).contains(words.count) else { return false }
        func month(_ word: String) -> Bool { MonthNames.names.contains(word.lowercased().trimmingSuffix(".")) }
        func day(_ word: String) -> Bool {
            let digits = word.trimmingSuffix(",").trimmingSuffix(".")
            let core = ["st", "nd", "rd", "th"].reduce(digits) { $0.hasSuffix($1) ? String($0.dropLast(2)) : $0 }
            return !core.isEmpty && core.count <= 2 && core.allSatisfy(\.isASCIIDigit) && (1...31).contains(Int(core)!)
        }
        func year(_ word: String) -> Bool {
            let core = word.trimmingSuffix(",").trimmingSuffix(".")
            return core.count == 4 && core.allSatisfy(\.isASCIIDigit) && (1000...2999).contains(Int(core)!)
        }
        if words.count == 3 {
            return (month(words[0]) && day(words[1]) && year(words[2])) || (day(words[0]) && month(words[1]) && year(words[2]))
        }
        return month(words[0]) && year(words[1]) && words[0].first!.isUppercase  // "March 2014"
    }

    /// Seven to fifteen digits in groups with the separators phone numbers use (a leading `+`,
    /// parentheses around an area code, spaces, dashes, dots), at least two groups, no commas.
    static func isPhone(_ text: String) -> Bool {
        let digits = text.filter(\.isASCIIDigit).count
        guard (7...15).contains(digits), text.allSatisfy({ $0.isASCIIDigit || " ()-.+".contains($0) }) else { return false }
        let groups = text.split(whereSeparator: { " ()-.".contains($0) })
        guard groups.count >= 2, groups.count <= 6 else { return false }
        if text.hasPrefix("+") { return true }
        // A formatted national number: an area code in parentheses, or groups joined by dashes.
        return text.contains("(") && text.contains(")") || text.contains("-") && groups.count >= 2 && groups.last!.count >= 4
            || text.contains(" ") && groups.count >= 3 && groups.first!.first == "0"
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
