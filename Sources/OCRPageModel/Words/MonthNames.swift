import Foundation

/// The names of the months, as dates print them: a number beside one is a day or a year
/// ("Received 25 July 2008", "Jan 3, 2024"), never an amount whose point the reading lost.
package enum MonthNames {
    /// English month names and their usual abbreviations, lower case.
    static let names: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ]

    /// Whether `text`, without the punctuation around it ("July,", "(Jan."), names a month.
    package static func isMonth(_ text: String) -> Bool {
        names.contains(text.trimmingCharacters(in: .punctuationCharacters).lowercased())
    }

    /// Whether the word at `index` of `words` (a line's, in reading order) has a month's name
    /// beside it.
    package static func isBesideMonth(_ index: Int, in words: [RawWord]) -> Bool {
        (index > 0 && isMonth(words[index - 1].text)) || (index + 1 < words.count && isMonth(words[index + 1].text))
    }
}
