import OCREngine
import OCRPageModel
import OCRWire
import Testing

extension EngineTests {
    /// Accented letters on real pages, which the English model cannot read (AccentedLetters.swift):
    /// Tesseract's own test page `eurotext.tif` (the quick brown fox in six languages, scanned)
    /// and camelot's Argentine donors' list as a 200-dpi fax (a dev-half page of the real-layout
    /// corpus). Plain `tesseract` reads "marron rapido", "iiber", "MARTIN"; `accurate` reads each
    /// word with marks its reading does not explain again with the models of
    /// ``AccentedLetters/languages`` (`make deps` installs them).
    @Suite(.enabled(if: Set(AccentedLetters.languages).isSubset(of: EngineConfiguration().installedLanguages),
                    "needs Debian's tesseract-ocr-por, -fra, -deu and -spa (make deps)"))
    struct AccentedLettersReading {
        @Test func accentedWordsOfAScanAreReadWithTheirAccents() async throws {
            let result = try await recognize(Fixtures.page("real/unlv-isri/eurotext.tif"))
            #expect(try #require(result.timings?.steps).map(\.step).contains("accented_letters_read"))
            let words = result.words.map(\.text)
            for word in ["über", "marrón", "rápido", "rápida"] {
                #expect(words.contains(word), "\(word) in \(result.text)")
            }
            // Words without accents stay as read.
            for word in ["braune", "faulen", "paresseux.", "perezoso."] {
                #expect(words.contains(word), "\(word) in \(result.text)")
            }
        }

        @Test func accentedNamesOfAFaxAreReadWithTheirAccents() async throws {
            let result = try await recognize(Fixtures.page("real/camelot/campaign_donors-p1-fax.png"))
            let words = result.words.map(\.text)
            for name in ["MARTÍN", "ADRIÁN", "MARÍA", "MATÍAS", "PÉREZ"] {
                #expect(words.contains(name), "\(name) in \(result.text)")
            }
        }

        /// `fast` reads as Tesseract does, without them.
        @Test func fastReadsAsTesseractDoes() async throws {
            let result = try await recognize(Fixtures.page("real/unlv-isri/eurotext.tif"), RecognitionOptions.with { $0.level = .fast })
            #expect(try #require(result.timings?.steps).map(\.step).contains("accented_letters") == false)
            #expect(result.words.map(\.text).contains("marron"), "\(result.text)")
        }
    }
}
