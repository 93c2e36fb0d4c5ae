/// Why bytes were rejected by the decoder. Decoding never traps on input; it throws one of these.
public enum WireDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ended inside a key, a varint, a fixed-width value or a length-delimited field.
    case truncated
    /// A varint longer than 10 bytes (or a 10th byte carrying more than one bit).
    case varintTooLong
    /// A length prefix that points past the end of the enclosing message.
    case lengthOutOfBounds(field: Int)
    /// A known field arrived with a wire type its declared type cannot have.
    case wrongWireType(field: Int, got: WireType)
    /// A key with wire type 6 or 7, which do not exist.
    case invalidWireType(UInt8)
    /// A key with field number 0 or above 2^29 - 1.
    case invalidFieldNumber(UInt64)
    /// A `string` field whose bytes are not valid UTF-8.
    case invalidUTF8(field: Int)
    /// Messages (or groups) nested deeper than `WireLimits.maxDepth`.
    case nestingTooDeep
    /// A group end marker without its start, or a group that does not close with its own number.
    case malformedGroup
    /// A map entry whose key or value has an unexpected shape.
    case malformedMapEntry(field: Int)

    /// What was wrong with the bytes.
    public var description: String {
        switch self {
        case .truncated: "truncated input"
        case .varintTooLong: "varint longer than 10 bytes"
        case .lengthOutOfBounds(let f): "length of field \(f) runs past the end of the message"
        case .wrongWireType(let f, let w): "field \(f) has the wrong wire type \(w.rawValue)"
        case .invalidWireType(let w): "invalid wire type \(w)"
        case .invalidFieldNumber(let n): "invalid field number \(n)"
        case .invalidUTF8(let f): "field \(f) is not valid UTF-8"
        case .nestingTooDeep: "messages nested deeper than \(WireLimits.maxDepth)"
        case .malformedGroup: "malformed group"
        case .malformedMapEntry(let f): "malformed map entry in field \(f)"
        }
    }
}
