extension Character {
    /// 0-9 only: not other scripts' digits, superscripts or fractions, which `isNumber` admits.
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
