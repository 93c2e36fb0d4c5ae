import OCRTransport
import Dispatch
import Foundation

/// Turns SIGTERM and SIGINT into calls of `handler` on a dispatch queue (through
/// `DispatchSource.makeSignalSource`, so the handler is ordinary code, not a signal handler).
/// The signals' default actions are disabled while this object lives; keep it alive.
public final class ShutdownSignals: Sendable {
    private let sources: Locked<[any DispatchSourceSignal]>

    /// - Parameter handler: called with the signal number, each time one arrives.
    public init(_ signals: [Int32] = [SIGTERM, SIGINT], queue: DispatchQueue = DispatchQueue(label: "ocr.signals"),
                handler: @escaping @Sendable (Int32) -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            // The default action (terminate) must be off, or the process dies before the source sees it.
            _ = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = Locked(sources)
    }

    /// Stops listening (the signals stay ignored).
    public func cancel() {
        sources.withLock { sources in
            sources.forEach { $0.cancel() }
            sources = []
        }
    }
}
