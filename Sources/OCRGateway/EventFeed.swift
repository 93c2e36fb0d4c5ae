import Dispatch
import OCRAPIJSON
import OCRBasics
import OCRCoordinator
import OCRHTTP
import OCRWire

/// A job's events as Server-Sent Events (`GET /v1/jobs/{id}/events`): a task follows the
/// coordinator's WatchJob stream and queues each event as an SSE message; the connection's
/// thread takes them (`HTTPStream.next`), with a comment every `keepalive` when nothing came.
///
/// Each message's `id` is the lowest page index not yet delivered on this stream: a client
/// that reconnects with `Last-Event-ID` gets every page from there (pages above it that it had
/// already seen may come again; `pageIndex` tells them apart). A client that does not read gets
/// at most `maxBufferedBytes` queued, then the stream is closed (it may resume).
final class EventFeed: Sendable {
    private struct State: Sendable {
        var queue = Deque<[UInt8]>()
        var bytes = 0
        var ended = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())
    private let ready = DispatchSemaphore(value: 0)
    private let keepalive: Duration
    private let maxBufferedBytes: Int

    init(_ events: AsyncThrowingStream<JobEvent, any Error>, fromPage: UInt32, keepalive: Duration = .seconds(15),
         maxBufferedBytes: Int = 8 << 20) {
        self.keepalive = keepalive
        self.maxBufferedBytes = maxBufferedBytes
        push(Array("retry: 2000\n\n".utf8))
        let task = Task { [self] in
            var delivered = Set<UInt32>()
            var lowest = fromPage
            do {
                for try await event in events {
                    let page: UInt32? = switch event.event {
                    case .pageCompleted(let completed)?: completed.result?.pageIndex ?? 0
                    case .pageFailed(let failed)?: failed.pageIndex
                    default: nil
                    }
                    if let page {
                        guard delivered.insert(page).inserted else { continue }
                        while delivered.contains(lowest) { delivered.remove(lowest); lowest += 1 }
                    }
                    guard push(Self.message(event, id: lowest)) else { return }
                    if event.finished != nil { break }
                }
            } catch let error as OCRError {
                push(Self.message(name: "error", id: lowest, JobJSON.status(error.status)))
            } catch {
                push(Self.message(name: "error", id: lowest, JobJSON.status(OCRError(.internal, "\(error)").status)))
            }
            end()
        }
        state.withLock { $0.task = task }
    }

    var stream: HTTPStream {
        HTTPStream(next: { [self] in next() }, close: { [self] in close() })
    }

    /// The next message, waiting up to `keepalive` (then a comment); nil once the stream ended
    /// and everything queued was taken.
    private func next() -> [UInt8]? {
        while true {
            let taken: [UInt8]?? = state.withLock { state in
                if let first = state.queue.popFirst() {
                    state.bytes -= first.count
                    return .some(first)
                }
                return state.ended ? .some(nil) : .none
            }
            if let taken { return taken }
            if ready.wait(timeout: .now() + .milliseconds(Int(keepalive.milliseconds))) == .timedOut {
                return Array(": keepalive\n\n".utf8)
            }
        }
    }

    /// Queues a message; false (and the stream ends) when the reader is too far behind.
    @discardableResult
    private func push(_ message: [UInt8]) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            if state.bytes + message.count > maxBufferedBytes {
                state.queue = Deque()
                state.bytes = 0
                state.ended = true
                return false
            }
            state.queue.append(message)
            state.bytes += message.count
            return true
        }
        ready.signal()
        return accepted
    }

    private func end() {
        state.withLock { $0.ended = true }
        ready.signal()
    }

    /// The connection ended: stop following the job.
    private func close() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.ended = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        ready.signal()
    }

    static func message(_ event: JobEvent, id: UInt32) -> [UInt8] {
        switch event.event {
        case .pageCompleted(let completed)?:
            let result = completed.result ?? PageResult()
            return message(name: "page_completed", id: id, .object([
                ("jobId", .string(event.jobId)), ("pageIndex", .int(Int(result.pageIndex))), ("file", .string(result.file)),
                ("filePage", .int(Int(result.filePage))), ("text", .string(result.text)),
                ("meanConfidence", .double(Double(result.meanConfidence))), ("attempt", .int(Int(result.attempt))),
            ]))
        case .pageFailed(let failed)?:
            return message(name: "page_failed", id: id, .object([
                ("jobId", .string(event.jobId)), ("pageIndex", .int(Int(failed.pageIndex))), ("file", .string(failed.file)),
                ("filePage", .int(Int(failed.filePage))), ("status", JobJSON.status(failed.status ?? Status())), ("attempts", .int(Int(failed.attempts))),
            ]))
        case .progress(let progress)?:
            return message(name: "progress", id: id, .object([
                ("jobId", .string(event.jobId)), ("pageCount", .int(Int(progress.pageCount))), ("pagesDone", .int(Int(progress.pagesDone))),
                ("pagesFailed", .int(Int(progress.pagesFailed))), ("pagesRunning", .int(Int(progress.pagesRunning))),
                ("pagesPerSecond", .double(progress.pagesPerSecond)),
            ]))
        case .finished(let finished)?:
            return message(name: "finished", id: id, .object([
                ("jobId", .string(event.jobId)), ("state", .string(finished.state.apiName)), ("status", JobJSON.status(finished.status ?? Status())),
                ("pagesDone", .int(Int(finished.pagesDone))), ("pagesFailed", .int(Int(finished.pagesFailed))),
            ]))
        case nil:
            return Array(": empty event\n\n".utf8)
        }
    }

    static func message(name: String, id: UInt32, _ data: JSON) -> [UInt8] {
        Array("id: \(id)\nevent: \(name)\ndata: \(data.text)\n\n".utf8)
    }
}
