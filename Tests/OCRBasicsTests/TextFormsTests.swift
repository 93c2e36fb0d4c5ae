import Foundation
import OCRBasics
import Testing

/// The package's one JSON writer, hex and byte-size spellings, duration conversions.
@Suite struct TextFormsTests {
    @Test func jsonIsWhatFoundationParsesBack() throws {
        let value = JSON.object([
            ("name", .string("a \"quoted\"\\ line\nwith\ttab and \u{1} and é")),
            ("count", .int(-3)), ("ratio", .double(0.25)), ("tiny", .double(1e-5)), ("whole", .double(2)),
            ("flags", .array([.bool(true), .bool(false), .null])), ("float", .float(0.5)),
        ])
        #expect(value.text.hasPrefix(#"{"name":"a \"quoted\"\\ line\nwith\ttab and \u0001 and é","count":-3,"ratio":0.25"#))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.text.utf8)) as? [String: Any])
        #expect(parsed["name"] as? String == "a \"quoted\"\\ line\nwith\ttab and \u{1} and é")
        #expect(parsed["count"] as? Int == -3 && parsed["ratio"] as? Double == 0.25 && parsed["tiny"] as? Double == 1e-5)
        #expect(value.text.contains(#""whole":2,"#), "integral doubles are written as integers")
        // Keys keep the order given (Foundation's writer sorts or shuffles them).
        #expect(value.text.range(of: "\"count\"")!.lowerBound < value.text.range(of: "\"ratio\"")!.lowerBound)
        // Not-a-number and infinities as protobuf's JSON mapping spells them.
        #expect(JSON.array([.double(.nan), .double(.infinity), .double(-.infinity)]).text == #"["NaN","Infinity","-Infinity"]"#)
    }

    @Test func hexAndByteCounts() {
        #expect([UInt8]([0x00, 0x0f, 0xa5, 0xff]).hexDigits == "000fa5ff")
        #expect(UInt64(0xbeef).paddedHex == "000000000000beef")
        #expect(ByteCount.text(1) == "1 byte")
        #expect(ByteCount.text(512) == "512 bytes")
        #expect(ByteCount.text(2_000_000) == "1.9 MiB (2,000,000 bytes)")
        #expect(ByteCount.text(UInt64(4) << 30) == "4.0 GiB (4,294,967,296 bytes)")
    }

    /// Truncated toward zero, as the comment of DurationUnits.swift says, on both sides of zero.
    @Test func durationsTruncateTowardZero() {
        #expect(Duration.milliseconds(1_500).milliseconds == 1_500)
        #expect(Duration.microseconds(2_500).milliseconds == 2)
        #expect(Duration.microseconds(-2_500).milliseconds == -2)
        #expect(Duration.seconds(2).microseconds == 2_000_000)
        #expect(Duration.milliseconds(250).seconds == 0.25)
    }
}
