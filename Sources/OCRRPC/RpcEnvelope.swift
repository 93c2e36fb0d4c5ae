import OCRWire

/// Client link (DESIGN section 3): `[RpcHeader][payload]`, both protobuf bytes; the payload is
/// empty for CANCEL, STREAM_END and error RESPONSEs.
package struct RpcEnvelope: FrameEnvelope {
    package static let frameCount = 2
    /// The serialized `RpcHeader`.
    package var header: [UInt8]
    /// The serialized request, response or stream message.
    package var payload: [UInt8]

    package init(header: [UInt8], payload: [UInt8] = []) {
        self.header = header
        self.payload = payload
    }

    package init(frames: ArraySlice<[UInt8]>) throws(EnvelopeError) {
        guard frames.count == Self.frameCount else {
            throw .wrongFrameCount(expected: Self.frameCount, actual: frames.count)
        }
        header = frames[frames.startIndex]
        payload = frames[frames.startIndex + 1]
    }

    package var frames: [[UInt8]] { [header, payload] }
}


extension RpcEnvelope {
    /// `[header][payload]` from a header and an already serialized payload (empty for CANCEL,
    /// STREAM_END and error RESPONSEs).
    package init(header: RpcHeader, payloadBytes: [UInt8] = []) {
        self.init(header: header.serializedBytes(), payload: payloadBytes)
    }

    /// `[header][payload]` from a header and the method's request, response or stream message.
    package init(header: RpcHeader, payload: some ProtoMessage) {
        self.init(header: header.serializedBytes(), payload: payload.serializedBytes())
    }

    /// Decodes the header frame.
    package func decodeHeader() throws(EnvelopeError) -> RpcHeader {
        try decodeFrame(RpcHeader.self, from: header, frame: "RpcHeader")
    }

    /// Decodes the payload frame as the message `method` expects.
    package func decodePayload<Message: ProtoMessage>(as type: Message.Type = Message.self) throws(EnvelopeError) -> Message {
        try decodeFrame(type, from: payload, frame: "payload")
    }
}
