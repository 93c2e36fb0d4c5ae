/// The protobuf wire types (https://protobuf.dev/programming-guides/encoding/#structure).
/// Groups (3, 4) are deprecated; we never write them and only skip them inside unknown fields.
public enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// A decoded field key: field number and wire type.
public struct FieldTag: Sendable, Equatable {
    /// The field number.
    public let number: Int
    /// How the value is encoded.
    public let wireType: WireType
    /// Offset of the key in the message's bytes (where an unknown field's bytes begin).
    let start: Int
}

/// Limits the decoder enforces on untrusted input.
public enum WireLimits {
    /// Messages nested deeper than this are rejected (as swift-protobuf and upb do).
    public static let maxDepth = 64
    /// Largest legal field number (2^29 - 1).
    public static let maxFieldNumber = 536_870_911
}
