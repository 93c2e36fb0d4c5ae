
// Typed views of the worker envelope over the generated messages. The raw-frame types stay the
// source of truth for framing; these only encode and decode the protobuf frames.

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
        try decodeFrame(WorkerMessage.self, from: body, frame: "WorkerMessage")
    }

    /// Decodes the body as the coordinator's message (on a worker).
    package func decodeCoordinatorMessage() throws(EnvelopeError) -> CoordinatorMessage {
        try decodeFrame(CoordinatorMessage.self, from: body, frame: "CoordinatorMessage")
    }
}

/// Decodes one frame of an envelope as `type`; a failure names the frame.
package func decodeFrame<Message: ProtoMessage>(_ type: Message.Type, from bytes: [UInt8], frame: String) throws(EnvelopeError) -> Message {
    do {
        return try Message(serializedBytes: bytes)
    } catch {
        throw .undecodable(frame: frame, error)
    }
}
