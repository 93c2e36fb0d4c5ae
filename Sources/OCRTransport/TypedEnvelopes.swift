import OCRWire

// Typed views of the envelopes over OCRWire's generated messages. The raw-frame types stay the
// source of truth for framing; these only encode and decode the protobuf frames.

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
        try decode(RpcHeader.self, from: header, frame: "RpcHeader")
    }

    /// Decodes the payload frame as the message `method` expects.
    package func decodePayload<Message: ProtoMessage>(as type: Message.Type = Message.self) throws(EnvelopeError) -> Message {
        try decode(type, from: payload, frame: "payload")
    }
}

extension WorkerEnvelope {
    /// `["OCRW01"][WorkerMessage]`, worker -> coordinator.
    package init(_ message: WorkerMessage) {
        self.init(body: message.serializedBytes())
    }

    /// `["OCRW01"][CoordinatorMessage]`, coordinator -> worker.
    package init(_ message: CoordinatorMessage) {
        self.init(body: message.serializedBytes())
    }

    /// Decodes the body as a worker's message (on the coordinator).
    package func decodeWorkerMessage() throws(EnvelopeError) -> WorkerMessage {
        try decode(WorkerMessage.self, from: body, frame: "WorkerMessage")
    }

    /// Decodes the body as the coordinator's message (on a worker).
    package func decodeCoordinatorMessage() throws(EnvelopeError) -> CoordinatorMessage {
        try decode(CoordinatorMessage.self, from: body, frame: "CoordinatorMessage")
    }
}

private func decode<Message: ProtoMessage>(_ type: Message.Type, from bytes: [UInt8], frame: String) throws(EnvelopeError) -> Message {
    do {
        return try Message(serializedBytes: bytes)
    } catch {
        throw .undecodable(frame: frame, error)
    }
}
