import Foundation

/// The names of the months as dates print them: English names and their usual abbreviations.
/// One list for what reads dates (a document's detected dates) and what must not take a day or
/// a year for an amount (a number beside a month's name, "Received 25 July 2008").
package enum MonthNames {
    /// The names, lower case.
    package static let names: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ]

    /// Whether `text`, in any case and without the punctuation around it ("July,", "(Jan."),
    /// names a month.
    package static func isMonth(_ text: String) -> Bool {
        names.contains(text.trimmingCharacters(in: .punctuationCharacters).lowercased())
    }
}
