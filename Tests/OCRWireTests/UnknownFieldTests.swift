import OCRWire
import Testing

/// Fields this build does not know are kept, as they came, and written back after the known
/// ones: a field added by a newer peer survives a decode/encode round trip (and so the
/// coordinator's relay of results). Byte tables, as in the golden-bytes tests.
@Suite struct UnknownFieldTests {
    // PageResult { page_index: 2 (field 1), [999: "new"], text: "x" (field 13) }, with an unknown
    // varint (field 500 = 7) and a fixed32 (field 501) as well.
    static let unknownString: [UInt8] = [0xBA, 0x3E, 0x03, 0x6E, 0x65, 0x77]  // 999, LEN, "new"
    static let unknownVarint: [UInt8] = [0xA0, 0x1F, 0x07]                    // 500, VARINT 7
    static let unknownFixed32: [UInt8] = [0xAD, 0x1F, 0x01, 0x02, 0x03, 0x04] // 501, I32

    @Test func unknownFieldsOfAMessageAreKeptAndWrittenBackAfterTheKnownOnes() throws {
        let known: [UInt8] = [0x08, 0x02]  // page_index = 2
        let bytes = known + Self.unknownString + Self.unknownVarint + Self.unknownFixed32
        let page = try PageResult(serializedBytes: bytes)
        #expect(page.pageIndex == 2)
        #expect(page.unknownFields == Self.unknownString + Self.unknownVarint + Self.unknownFixed32)
        #expect(page.serializedBytes() == bytes)
        // Interleaved with known fields: the values survive, the unknown ones move to the end.
        let interleaved = Self.unknownVarint + known + Self.unknownString
        let again = try PageResult(serializedBytes: interleaved)
        #expect(again.pageIndex == 2)
        #expect(again.serializedBytes() == known + Self.unknownVarint + Self.unknownString)
    }

    @Test func unknownFieldsOfNestedMessagesAreKept() throws {
        // TaskResult { result (4): PageResult { page_index: 1, [999: "new"] } }
        let inner: [UInt8] = [0x08, 0x01] + Self.unknownString
        let bytes: [UInt8] = [0x22, UInt8(inner.count)] + inner
        let task = try TaskResult(serializedBytes: bytes)
        let page = try #require(task.result)
        #expect(page.unknownFields == Self.unknownString)
        #expect(task.unknownFields.isEmpty)
        #expect(task.serializedBytes() == bytes)
        // Re-wrapped in another message, as the coordinator relays a worker's page to a client.
        let event = JobEvent.with { $0.jobId = "j"; $0.event = .pageCompleted(PageCompleted.with { $0.result = page }) }
        let relayed = try JobEvent(serializedBytes: event.serializedBytes())
        #expect(relayed.pageCompleted?.result == page)
        #expect(relayed.pageCompleted?.result?.unknownFields == Self.unknownString)
    }

    @Test func truncatedUnknownFieldsAreStillRejected() {
        for bytes: [UInt8] in [[0xBA, 0x3E, 0x05, 0x6E], [0xA0, 0x1F], [0xAD, 0x1F, 0x01]] {
            #expect(throws: WireDecodingError.self) { try PageResult(serializedBytes: bytes) }
        }
    }
}
