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
}
