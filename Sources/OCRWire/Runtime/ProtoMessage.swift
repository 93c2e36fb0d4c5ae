/// A protobuf message type generated from `proto/` (see `scripts/gen_wire.py`).
public protocol ProtoMessage: Sendable, Equatable {
    /// The message with every field at its proto3 default.
    init()
    /// Appends this message's fields (not its length) in field-number order.
    func encode(to writer: inout ProtoWriter)
    /// Reads fields until the end of the current message, merging into `self`.
    mutating func decodeFields(from reader: inout ProtoReader) throws(WireDecodingError)
}

extension ProtoMessage {
    /// Decodes `bytes` (untrusted input is fine: malformed bytes throw, never trap).
    public init(serializedBytes bytes: [UInt8]) throws(WireDecodingError) {
        // withUnsafeBytes only rethrows untyped errors, so the typed error travels as a Result.
        let outcome = bytes.withUnsafeBytes { buffer -> Result<Self, WireDecodingError> in
            do throws(WireDecodingError) {
                return .success(try Self(serializedBuffer: buffer))
            } catch {
                return .failure(error)
            }
        }
        self = try outcome.get()
    }

    /// Decodes the bytes of `buffer` in place, without copying them first (a large upload still
    /// in the frame it was received in).
    public init(serializedBuffer buffer: UnsafeRawBufferPointer) throws(WireDecodingError) {
        var message = Self()
        var reader = ProtoReader(buffer)
        try message.decodeFields(from: &reader)
        self = message
    }

    /// Decodes from any contiguous or non-contiguous byte sequence (for example `Data`).
    public init(serializedBytes bytes: some Sequence<UInt8>) throws(WireDecodingError) {
        try self.init(serializedBytes: Array(bytes))
    }

    /// The protobuf binary encoding of this message.
    public func serializedBytes() -> [UInt8] {
        var writer = ProtoWriter(capacity: 64)
        encode(to: &writer)
        return writer.finish()
    }
}

/// A protobuf enum: open, as proto3 requires, so values this build does not know survive a
/// decode/encode round trip as `unrecognized(rawValue)`.
public protocol ProtoEnum: Sendable, Hashable {
    init(rawValue: Int32)
    var rawValue: Int32 { get }
}
