/// Escapes `text` for XML character data and attribute values (both quote styles). Characters
/// XML 1.0 forbids (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) become U+FFFD. In
/// attribute values tab, LF and CR are written as character references so they survive
/// attribute-value normalisation. Non-ASCII text is written as is (documents are UTF-8).
func xmlEscaped(_ text: String, attribute: Bool = true) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"" where attribute: out += "&quot;"
        case "'" where attribute: out += "&#39;"
        case "\t" where attribute: out += "&#9;"
        case "\n" where attribute: out += "&#10;"
        case "\r": out += "&#13;"
        case "\t", "\n": out.unicodeScalars.append(scalar)
        default:
            if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                out += "\u{FFFD}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}
