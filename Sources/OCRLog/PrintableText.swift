/// Text from outside (file names above all) made safe for one line of a terminal or a log: a
/// file named "a\nb.tif" must not forge a second line, and one holding ESC must not drive the
/// terminal. Control characters (C0, DEL, C1) become `\n`, `\r`, `\t` or `\u{XX}`; everything
/// else, non-ASCII letters included, is kept.
package enum PrintableText {
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
