import Testing
@testable import OCRWire

/// Byte tables checked by hand against the encoding spec and `protoc --encode`.
@Suite struct GoldenBytesTests {
    @Test func emptyMessageEncodesToNothing() throws {
        #expect(PageResult().serializedBytes() == [])
        #expect(try PageResult(serializedBytes: []) == PageResult())
    }

    @Test func scalarsVarintZigZagAndFixed() throws {
        var s = Status()
        s.code = .invalidArgument          // field 1 varint 3
        s.message = "é"                    // field 2, 2 UTF-8 bytes
        s.pageIndex = -1                   // field 4 sint32 zigzag -> 1
        let bytes = s.serializedBytes()
        #expect(bytes == [0x08, 0x03, 0x12, 0x02, 0xC3, 0xA9, 0x20, 0x01])
        #expect(try Status(serializedBytes: bytes) == s)
    }

    @Test func negativeInt32IsTenBytes() throws {
        var p = PageResult()
        p.rotationDegrees = -90  // int32 field 7: sign-extended to 64 bits
        let bytes = p.serializedBytes()
        #expect(bytes == [0x38, 0xA6, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(try PageResult(serializedBytes: bytes).rotationDegrees == -90)
    }

    @Test func packedRepeatedAndNested() throws {
        var line = TextLine()
        line.baseline = [1, -1, 300]  // packed sint32 field 5: zigzag 2, 1, 600
        line.box = BoundingBox.with { $0.width = 200 }  // field 3 nested: field 3 varint 200
        let bytes = line.serializedBytes()
        #expect(bytes == [0x1A, 0x03, 0x18, 0xC8, 0x01, 0x2A, 0x04, 0x02, 0x01, 0xD8, 0x04])
        #expect(try TextLine(serializedBytes: bytes) == line)
    }

    @Test func unknownEnumValueSurvivesRoundTrip() throws {
        let bytes: [UInt8] = [0x08, 0x63]  // Status.code = 99
        let s = try Status(serializedBytes: bytes)
        #expect(s.code == .unrecognized(99))
        #expect(s.serializedBytes() == bytes)
    }

    @Test func unknownFieldsAreSkipped() throws {
        // field 15 varint, field 16 fixed64, field 17 length-delimited, then code = 5
        let bytes: [UInt8] = [0x78, 0x01, 0x81, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x8A, 0x01, 0x01, 0xFF, 0x08, 0x05]
        #expect(try Status(serializedBytes: bytes).code == .notFound)
    }

    @Test func largeNestedLengthShiftsCorrectly() throws {
        var page = PageResult()
        page.blocks = [Block.with { $0.text = String(repeating: "x", count: 300) }]
        let bytes = page.serializedBytes()
        // field 11 key (0x5A), length 303 = 0xAF 0x02, then Block: key 0x0A, length 300 = 0xAC 0x02
        #expect(Array(bytes.prefix(7)) == [0x5A, 0xAF, 0x02, 0x0A, 0xAC, 0x02, 0x78])
        #expect(bytes.count == 3 + 303)
        #expect(try PageResult(serializedBytes: bytes) == page)
    }

    @Test func mapEntriesSortedByKeyBytesEmptyKeyFirst() throws {
        // As protoc (C++) writes them; upb's deterministic mode puts the empty key last.
        let s = Status.with { $0.details = ["b": "", "": "x", "é": "1"] }
        let bytes = s.serializedBytes()
        #expect(bytes == [
            0x2A, 0x05, 0x0A, 0x00, 0x12, 0x01, 0x78,              // "" -> "x"
            0x2A, 0x05, 0x0A, 0x01, 0x62, 0x12, 0x00,              // "b" -> "" (value written)
            0x2A, 0x07, 0x0A, 0x02, 0xC3, 0xA9, 0x12, 0x01, 0x31,  // "é" -> "1"
        ])
        #expect(try Status(serializedBytes: bytes) == s)
    }

    @Test func negativeZeroIsWrittenAndNaNBitsSurvive() throws {
        let zero = Candidate.with { $0.confidence = -0.0 }
        #expect(zero.serializedBytes() == [0x15, 0x00, 0x00, 0x00, 0x80])
        #expect(Candidate().serializedBytes() == [])  // +0.0 is the default: omitted
        let nan = Candidate.with { $0.confidence = Float(bitPattern: 0xFFC1_2345) }  // negative, with payload
        let bytes = nan.serializedBytes()
        #expect(bytes == [0x15, 0x45, 0x23, 0xC1, 0xFF])
        #expect(try Candidate(serializedBytes: bytes).confidence.bitPattern == 0xFFC1_2345)
    }

    @Test func proto3OptionalFalseIsPresent() throws {
        let o = RecognitionOptions.with { $0.languageCorrection = false }
        #expect(o.serializedBytes() == [0x18, 0x00])
        #expect(try RecognitionOptions(serializedBytes: [0x18, 0x00]).languageCorrection == false)
        #expect(try RecognitionOptions(serializedBytes: []).languageCorrection == nil)
    }

    @Test func unknownFieldsAreReEncodedAfterTheKnownOnes() throws {
        let s = try Status(serializedBytes: [0x78, 0x01, 0x08, 0x05])
        #expect(s.code == .notFound)  // 5
        #expect(s.unknownFields == [0x78, 0x01])
        #expect(s.serializedBytes() == [0x08, 0x05, 0x78, 0x01])
    }

    @Test func concatenatedEncodingsMerge() throws {
        // Singular scalars: last wins; repeated: appended; messages: merged field by field.
        let a = Word.with { $0.text = "a"; $0.box = BoundingBox.with { $0.x = 1 }; $0.symbols = [Symbol()] }
        let b = Word.with { $0.text = "b"; $0.box = BoundingBox.with { $0.width = 2 }; $0.symbols = [Symbol.with { $0.text = "s" }] }
        let merged = try Word(serializedBytes: a.serializedBytes() + b.serializedBytes())
        #expect(merged.text == "b")
        #expect(merged.box == BoundingBox.with { $0.x = 1; $0.width = 2 })
        #expect(merged.symbols.map(\.text) == ["", "s"])
    }

    /// Known limitation, pinned so it cannot change unnoticed: `map<string, string>` is a Swift
    /// `[String: String]`, whose keys compare by Unicode canonical equivalence, while protobuf
    /// compares key bytes. Keys "é" (U+00E9) and "e" + U+0301 are one Swift key: the later
    /// entry wins and one is lost. Our own encoder never produces this; a peer could.
    @Test func canonicallyEquivalentMapKeysCollapse() throws {
        let bytes: [UInt8] = [
            0x2A, 0x07, 0x0A, 0x02, 0xC3, 0xA9, 0x12, 0x01, 0x31,        // "é" (NFC) -> "1"
            0x2A, 0x08, 0x0A, 0x03, 0x65, 0xCC, 0x81, 0x12, 0x01, 0x32,  // "é" (NFD) -> "2"
        ]
        let s = try Status(serializedBytes: bytes)
        #expect(s.details.count == 1)
        #expect(s.details["\u{E9}"] == "2")
    }
}
