// OCRZeroMQ: the ZeroMQ layer every ocr-cluster process uses (DESIGN sections 2, 3, 6). It knows
// sockets, frames and keys, nothing of protobuf or OCR: the RPC layer (OCRRPC) and the worker
// link (OCRWire's envelopes, OCRWorker, OCRCoordinator) are built on it.
//
// Pieces, one file each:
// - ZMQCall.swift       the one helper turning libzmq return codes into `TransportError`
//                       (EINTR retried, EAGAIN returned as a value: `nil` / `false`).
// - ZMQContext.swift    `ZMQContext`: thread-safe; `terminate()` is explicit and defined.
// - ZMQSocket.swift     `ZMQSocket` (one owner thread, explicit `close`), `SocketOption`.
// - ZMQPoller.swift     `ZMQPoller`, `PollEvents`: zmq_poll with a millisecond timeout.
// - SocketLoop.swift    `SocketLoop`: a dedicated thread owning sockets, timers and a work queue
//                       woken through an inproc PUSH/PULL pair. `SocketID`.
// - TimerQueue.swift    the loop's timer heap (pure). `TimerID`.
// - SocketMonitor.swift `SocketMonitor`: zmq_socket_monitor events (a DEALER's peer went away).
// - ConnectionCounter.swift `ConnectionCounter`: live connections of a listening socket.
// - Curve.swift         `CurveKey`, `CurveKeyPair` (zmq_curve_keypair / zmq_curve_public).
// - CurveSecurity.swift client and server CURVE settings, key files, allow-lists.
// - ZAPHandler.swift    `ZAPHandler`, `CurveAllowList`: RFC 27 authentication on a loop.
//
// Rules for users:
// 1. A socket belongs to the thread that created it. Loop-owned sockets are created inside
//    `SocketLoop.start` / `perform` / `execute` and registered with `Control.register`; other
//    threads refer to them by `SocketID` only and reach them with `loop.send(_:on:)`,
//    `loop.execute`, `loop.perform` (async) or `loop.performAndWait` (plain threads).
// 2. Handlers, timers and submitted work run on the loop thread and must not block. OCR runs on
//    engine threads; they hand results back with `loop.send` / `loop.execute`.
// 3. Shutdown order: `loop.stop()` for every loop (queued work runs, sockets close with a small
//    linger), `close()` any other socket, then `context.terminate()`. If a loop is forgotten,
//    `terminate()` still ends it: its poll fails with ETERM and it closes its sockets.
// 4. Peer input is never trusted: frames are handed over as bytes; whoever decodes them
//    (OCRWire's envelopes) throws, never traps.
// No unsafe pointer leaves this module.
