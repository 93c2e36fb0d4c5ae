import Testing
@testable import OCRWire

/// Decodes `bytes` as `M` and expects exactly `expected`.
func assertFails<M: ProtoMessage>(
    _ type: M.Type, _ bytes: [UInt8], _ expected: WireDecodingError,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try M(serializedBytes: bytes)
        Issue.record("expected \(expected), decoded \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, sourceLocation: sourceLocation)
    }
}

/// `Status` is the default target: code (1, enum), message (2, string), file (3, string),
/// page_index (4, sint32), details (5, map<string, string>).
func assertFails(_ bytes: [UInt8], _ expected: WireDecodingError, sourceLocation: SourceLocation = #_sourceLocation) {
    assertFails(Status.self, bytes, expected, sourceLocation: sourceLocation)
}

func assertDecodes<M: ProtoMessage>(_ type: M.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> M? {
    do {
        return try M(serializedBytes: bytes)
    } catch {
        Issue.record("expected a value, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Byte tables of malformed input: every one is rejected with one exact typed error, and none
/// traps or allocates from an unchecked length.
@Suite struct HostileBytesTests {
    static let ten0x80: [UInt8] = Array(repeating: 0x80, count: 10)
    static let nine0xFF: [UInt8] = Array(repeating: 0xFF, count: 9)

    @Test func truncatedInput() {
        assertFails([0x80], .truncated)                          // key: continuation bit, then nothing
        assertFails([0xFA, 0x80, 0x80], .truncated)              // key: three bytes, still continuing
        assertFails([0x08], .truncated)                          // varint field: key only
        assertFails([0x08, 0x80], .truncated)                    // truncated varint
        assertFails([0x08, 0xFF, 0xFF, 0xFF], .truncated)        // truncated varint, several bytes
        assertFails([0x20, 0x81], .truncated)                    // truncated sint32
        assertFails(Heartbeat.self, [0x0D], .truncated)          // fixed32: key only
        assertFails(Heartbeat.self, [0x0D, 1, 2, 3], .truncated) // fixed32: 3 of 4 bytes
        assertFails(PageResult.self, [0x51, 1, 2, 3, 4, 5, 6, 7], .truncated)  // fixed64 worker_uid: 7 of 8
        assertFails(PageResult.self, [0x41, 0, 0, 0, 0], .truncated)           // double skew_degrees: 4 of 8
        assertFails(PageResult.self, [0x6D, 0, 0], .truncated)                  // float mean_confidence: 2 of 4
        assertFails([0x12], .truncated)                          // string: no length
        assertFails([0x12, 0x80], .truncated)                    // string: truncated length varint
        assertFails([0x12, 0x05, 0x61, 0x62], .lengthOutOfBounds(field: 2))  // string: 2 of 5 bytes
        assertFails(InputFile.self, [0x12, 0x03, 0x00], .lengthOutOfBounds(field: 2))  // bytes: 1 of 3
        assertFails(TextLine.self, [0x2A, 0x01, 0x80], .truncated)  // packed sint32: varint cut by the packed length
        assertFails(Job.self, [0x62, 0x02, 0x01, 0x80], .truncated) // packed enum: last varint cut
        // Unknown fields are truncated the same way.
        assertFails([0x78], .truncated)                          // unknown varint: key only
        assertFails([0x7D, 1, 2], .truncated)                    // unknown fixed32
        assertFails([0x79, 1, 2, 3, 4, 5, 6, 7], .truncated)     // unknown fixed64
        assertFails([0x7A, 0x03, 1], .lengthOutOfBounds(field: 15))  // unknown length-delimited
        assertFails([0x7B], .truncated)                          // unknown group never closed
        assertFails([0x7B, 0x08, 0x01], .truncated)              // unknown group: content, no end
    }

    @Test func overlongVarints() {
        assertFails([0x08] + Self.ten0x80 + [0x00], .varintTooLong)   // 11 bytes
        assertFails([0x08] + Self.ten0x80 + [0x80, 0x01], .varintTooLong)  // 12 bytes
        assertFails([0x08] + Self.nine0xFF + [0x02], .varintTooLong)  // 10th byte overflows 64 bits
        assertFails([0x08] + Self.nine0xFF + [0x7F], .varintTooLong)  // 10th byte overflows 64 bits
        assertFails([0x08] + Self.nine0xFF + [0x81, 0x00], .varintTooLong)  // 10th byte continues
        assertFails(Self.ten0x80 + [0x00], .varintTooLong)            // key over 10 bytes
        assertFails([0x7A] + Self.ten0x80 + [0x00], .varintTooLong)   // length over 10 bytes
        assertFails(TextLine.self, [0x2A, 0x0B] + Self.ten0x80 + [0x00], .varintTooLong)  // inside packed
        // The largest legal 10-byte varint is fine: int32 takes the low 32 bits (-1 here).
        #expect(assertDecodes(Status.self, [0x08] + Self.nine0xFF + [0x01])?.code == .unrecognized(-1))
        // A non-minimal zero in 10 bytes is legal too.
        #expect(assertDecodes(Status.self, [0x08] + Array(Self.ten0x80.prefix(9)) + [0x00])?.code == .ok)
    }

    @Test func lengthsPastTheEnd() {
        assertFails([0x12, 0x01], .lengthOutOfBounds(field: 2))                   // 1 byte promised, none left
        assertFails([0x12, 0x7F, 0x61], .lengthOutOfBounds(field: 2))
        assertFails([0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0x07], .lengthOutOfBounds(field: 2))           // 2^31 - 1
        assertFails([0x12, 0x80, 0x80, 0x80, 0x80, 0x08], .lengthOutOfBounds(field: 2))           // 2^31
        assertFails([0x12] + Array(Self.ten0x80.prefix(9)) + [0x01], .lengthOutOfBounds(field: 2))  // 2^63: must not allocate
        assertFails([0x12] + Self.nine0xFF + [0x01], .lengthOutOfBounds(field: 2))                // 2^64 - 1
        assertFails(InputFile.self, [0x12] + Self.nine0xFF + [0x01], .lengthOutOfBounds(field: 2)) // bytes, 2^64 - 1
        assertFails(PageResult.self, [0x5A] + Self.nine0xFF + [0x01], .lengthOutOfBounds(field: 11))  // repeated message
        assertFails(TextLine.self, [0x2A] + Self.nine0xFF + [0x01], .lengthOutOfBounds(field: 5))     // packed
        assertFails([0x2A] + Self.nine0xFF + [0x01], .lengthOutOfBounds(field: 5))                    // map entry
        assertFails([0x7A] + Self.nine0xFF + [0x01], .lengthOutOfBounds(field: 15))                   // unknown
        // A nested length is checked against the enclosing message, not the whole buffer:
        // Symbol.box holds 2 bytes, inside them an unknown field claims 3 that exist only outside.
        assertFails(Symbol.self, [0x1A, 0x02, 0x7A, 0x03, 0x01, 0x02, 0x03], .lengthOutOfBounds(field: 15))
        // ...and a nested varint cannot run past its message either.
        assertFails(Symbol.self, [0x1A, 0x02, 0x08, 0x80, 0x01], .truncated)
        assertFails(Symbol.self, [0x1A, 0x01, 0x7B, 0x7C], .truncated)  // a group cannot close outside its message
    }

    @Test func wrongWireTypeForKnownFields() {
        // enum (varint) field 1 with every other wire type
        assertFails([0x09, 0, 0, 0, 0, 0, 0, 0, 0], .wrongWireType(field: 1, got: .fixed64))
        assertFails([0x0A, 0x00], .wrongWireType(field: 1, got: .lengthDelimited))
        assertFails([0x0B, 0x0C], .wrongWireType(field: 1, got: .startGroup))
        assertFails([0x0C], .wrongWireType(field: 1, got: .endGroup))
        assertFails([0x0D, 0, 0, 0, 0], .wrongWireType(field: 1, got: .fixed32))
        assertFails([0x10, 0x01], .wrongWireType(field: 2, got: .varint))                  // string
        assertFails([0x25, 0, 0, 0, 0], .wrongWireType(field: 4, got: .fixed32))          // sint32
        assertFails([0x28, 0x00], .wrongWireType(field: 5, got: .varint))                  // map
        assertFails(InputFile.self, [0x10, 0x00], .wrongWireType(field: 2, got: .varint))  // bytes
        assertFails(Heartbeat.self, [0x08, 0x01], .wrongWireType(field: 1, got: .varint))  // fixed32
        assertFails(Heartbeat.self, [0x09, 0, 0, 0, 0, 0, 0, 0, 0], .wrongWireType(field: 1, got: .fixed64))  // fixed32
        assertFails(PageResult.self, [0x55, 0, 0, 0, 0], .wrongWireType(field: 10, got: .fixed32))  // fixed64
        assertFails(PageResult.self, [0x45, 0, 0, 0, 0], .wrongWireType(field: 8, got: .fixed32))   // double
        assertFails(PageResult.self, [0x69, 0, 0, 0, 0, 0, 0, 0, 0], .wrongWireType(field: 13, got: .fixed64))  // float
        assertFails(PageResult.self, [0x48, 0x00], .wrongWireType(field: 9, got: .varint))  // message
        assertFails(PageResult.self, [0x58, 0x01], .wrongWireType(field: 11, got: .varint))  // repeated message
        assertFails(Job.self, [0x45, 0, 0, 0, 0], .wrongWireType(field: 8, got: .fixed32))  // sfixed64
        assertFails(Job.self, [0x50, 0x00], .wrongWireType(field: 10, got: .varint))       // repeated string
        assertFails(Job.self, [0x65, 0, 0, 0, 0], .wrongWireType(field: 12, got: .fixed32))  // repeated enum
        assertFails(TextLine.self, [0x2D, 0, 0, 0, 0], .wrongWireType(field: 5, got: .fixed32))  // repeated sint32
        assertFails(SubmitJobResponse.self, [0x19, 0, 0, 0, 0, 0, 0, 0, 0], .wrongWireType(field: 3, got: .fixed64))  // bool
        assertFails(RecognitionOptions.self, [0x1A, 0x00], .wrongWireType(field: 3, got: .lengthDelimited))  // optional bool
        assertFails(WorkerMessage.self, [0x08, 0x00], .wrongWireType(field: 1, got: .varint))  // oneof message member
        assertFails(JobEvent.self, [0x35, 0, 0, 0, 0], .wrongWireType(field: 6, got: .fixed32))  // oneof message member
        // Repeated scalars are accepted packed and unpacked alike, as the spec requires.
        #expect(assertDecodes(TextLine.self, [0x28, 0x02, 0x2A, 0x02, 0x01, 0x03])?.baseline == [1, -1, -2])
    }

    @Test func invalidUTF8InStrings() {
        let invalid: [[UInt8]] = [
            [0xC0, 0x80],                    // overlong NUL
            [0xC1, 0xBF],                    // overlong 2-byte
            [0xE0, 0x80, 0xAF],              // overlong 3-byte "/"
            [0xF0, 0x80, 0x80, 0xAF],        // overlong 4-byte "/"
            [0xED, 0xA0, 0x80],              // surrogate U+D800
            [0xED, 0xBF, 0xBF],              // surrogate U+DFFF
            [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80],  // surrogate pair as CESU-8
            [0xF4, 0x90, 0x80, 0x80],        // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],        // lead byte past 0xF4
            [0xE6, 0x97],                    // truncated 3-byte sequence
            [0xF0, 0x9F, 0x98],              // truncated 4-byte sequence (emoji)
            [0x61, 0xF0],                    // lead byte at the end
            [0x80],                          // lone continuation byte
            [0xFE], [0xFF],                  // never valid
            [0xC3, 0x28],                    // lead byte then ASCII
        ]
        for seq in invalid {
            let n = UInt8(seq.count)
            assertFails([0x12, n] + seq, .invalidUTF8(field: 2))                       // message
            assertFails([0x1A, n] + seq, .invalidUTF8(field: 3))                       // file
            assertFails(Ready.self, [0x1A, n] + seq, .invalidUTF8(field: 3))           // repeated string
            assertFails(PageResult.self, [0x5A, n + 2, 0x0A, n] + seq, .invalidUTF8(field: 1))  // nested Block.text
            assertFails([0x2A, n + 2, 0x0A, n] + seq, .invalidUTF8(field: 5))          // map key
            assertFails([0x2A, n + 2, 0x12, n] + seq, .invalidUTF8(field: 5))          // map value
        }
        // Long strings (past the 15-byte small-string form and the 8-byte compare words), with
        // the bad sequence at the start, in the middle, and in the tail after the last full word.
        let ascii = Array("The quick brown fox jumps".utf8)  // 25 bytes
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98]] {
            for s in [bad + ascii, Array(ascii[..<9]) + bad + Array(ascii[9...]), ascii + bad, Array("ß".utf8) + ascii + bad] {
                assertFails([0x12, UInt8(s.count)] + s, .invalidUTF8(field: 2))
            }
        }
        for s in [ascii, ascii + Array("ß😀".utf8), Array("日本語のテキスト".utf8)] {
            #expect(assertDecodes(Status.self, [0x12, UInt8(s.count)] + s).map { Array($0.message.utf8) } == s)
        }
        // The edges of valid UTF-8 pass, and bytes fields take anything.
        for seq: [UInt8] in [[0x00], [0x7F], [0xC2, 0x80], [0xEF, 0xBF, 0xBF], [0xEE, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]] {
            let s = assertDecodes(Status.self, [0x12, UInt8(seq.count)] + seq)
            #expect(s.map { Array($0.message.utf8) } == seq)
        }
        #expect(assertDecodes(InputFile.self, [0x12, 0x02, 0xC0, 0x80])?.content == [0xC0, 0x80])
    }

    @Test func malformedMapEntries() {
        assertFails([0x2A, 0x02, 0x08, 0x01], .malformedMapEntry(field: 5))  // key as varint
        assertFails([0x2A, 0x05, 0x15, 0, 0, 0, 0], .malformedMapEntry(field: 5))  // value as fixed32
        assertFails([0x2A, 0x02, 0x0A, 0x05], .malformedMapEntry(field: 5))  // key longer than the entry
        assertFails([0x2A, 0x01, 0x0A], .truncated)                          // key length missing
        // Missing key or value is the empty string; unknown entry fields are skipped.
        #expect(assertDecodes(Status.self, [0x2A, 0x00])?.details == ["": ""])
        #expect(assertDecodes(Status.self, [0x2A, 0x05, 0x18, 0x01, 0x12, 0x01, 0x76])?.details == ["": "v"])
    }

    @Test func nestingDeeperThan64() {
        let start: UInt8 = 0x7B, end: UInt8 = 0x7C  // unknown field 15, start and end group
        func groups(_ n: Int) -> [UInt8] { Array(repeating: start, count: n) + Array(repeating: end, count: n) }
        // 64 nested groups decode (kept as one unknown field, written back as they came).
        #expect(assertDecodes(Status.self, groups(WireLimits.maxDepth))?.unknownFields == groups(WireLimits.maxDepth))
        assertFails(groups(WireLimits.maxDepth + 1), .nestingTooDeep)
        assertFails(Array(repeating: start, count: 1_000_000), .nestingTooDeep)  // no stack overflow
        // Depth counts messages and groups together: Symbol.box is depth 1, so 63 groups fit.
        func inBox(_ g: [UInt8]) -> [UInt8] { [0x1A] + varint(UInt64(g.count)) + g }
        #expect(assertDecodes(Symbol.self, inBox(groups(WireLimits.maxDepth - 1))) != nil)
        assertFails(Symbol.self, inBox(groups(WireLimits.maxDepth)), .nestingTooDeep)
        // The deepest real path: PageResult > Block > Paragraph > TextLine > Word > Symbol > box,
        // plus groups to fill up to the limit.
        func wrap(_ key: UInt8, _ inner: [UInt8]) -> [UInt8] { [key] + varint(UInt64(inner.count)) + inner }
        func page(_ g: [UInt8]) -> [UInt8] {
            wrap(0x5A, wrap(0x2A, wrap(0x22, wrap(0x22, wrap(0x2A, wrap(0x1A, g))))))
        }
        #expect(assertDecodes(PageResult.self, page(groups(WireLimits.maxDepth - 6))) != nil)
        assertFails(PageResult.self, page(groups(WireLimits.maxDepth - 5)), .nestingTooDeep)
    }

    @Test func invalidKeys() {
        assertFails([0x0E], .invalidWireType(6))                     // field 1, wire type 6
        assertFails([0x0F], .invalidWireType(7))                     // field 1, wire type 7
        assertFails([0x7E, 0x00], .invalidWireType(6))               // unknown field, wire type 6
        assertFails([0x08, 0x01, 0x7F], .invalidWireType(7))         // after a good field
        assertFails([0x00, 0x00], .invalidFieldNumber(0))            // field 0, varint
        assertFails([0x02, 0x00], .invalidFieldNumber(0))            // field 0, length-delimited
        assertFails([0x06], .invalidFieldNumber(0))                  // field 0 is checked before the wire type
        assertFails([0x80, 0x80, 0x80, 0x80, 0x10, 0x00], .invalidFieldNumber(536_870_912))  // 2^29
        assertFails(Self.nine0xFF + [0x01], .invalidFieldNumber(UInt64.max >> 3))            // all ones
        // 2^29 - 1 is the largest field number: skipped as unknown.
        #expect(assertDecodes(Status.self, [0xF8, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 0x08, 0x05])?.code == .notFound)
    }

    @Test func strayAndMismatchedGroups() {
        assertFails([0x7C], .malformedGroup)                         // stray end group, unknown field 15
        assertFails([0x08, 0x01, 0x84, 0x01], .malformedGroup)       // stray end group, field 16
        assertFails([0x7B, 0x84, 0x01], .malformedGroup)             // start 15, end 16
        assertFails([0x7B, 0x7B, 0x7C, 0x84, 0x01], .malformedGroup) // inner closes, outer mismatched
        assertFails(Symbol.self, [0x1A, 0x01, 0x7C], .malformedGroup)  // stray end inside a nested message
        // A well-formed unknown group (with fields of every wire type inside) is skipped.
        let group: [UInt8] = [0x7B, 0x08, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1A, 0x01, 0x00, 0x25, 1, 2, 3, 4, 0x7C]
        #expect(assertDecodes(Status.self, group + [0x08, 0x05])?.code == .notFound)
    }
}

/// Base-128 varint, for building test input.
func varint(_ value: UInt64) -> [UInt8] {
    var v = value, out: [UInt8] = []
    while v >= 0x80 { out.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
    return out + [UInt8(v)]
}
