import OCRBasics
import Foundation
import OCRZeroMQ
import OCRWire

/// Many lightweight worker connections in one process, for the scale benchmark: each is a real
/// DEALER socket speaking the worker protocol (Ready, Heartbeat, TaskResult, Disconnect) to the
/// coordinator, and "recognises" a page by waiting `pageTime` on a timer (no thread, no CPU).
/// All of them live on one `SocketLoop` thread, so 400 connections cost 400 sockets, not 400
/// processes or 800 threads.
final class FakeWorkers: @unchecked Sendable {
    // @unchecked: `sockets`, `busy` and the counters are only touched on the loop thread.
    let loop: SocketLoop
    let context: ZMQContext
    let connections: Int
    let slotsPerConnection: Int
    let pageTime: Duration
    private var sockets: [SocketID] = []
    private var sequence: UInt32 = 0
    private let counters = Locked(Counters())

    struct Counters: Sendable {
        var tasks = 0
        var results = 0
        var disconnects = 0
    }

    init(endpoint: String, connections: Int, slotsPerConnection: Int = 1, pageTime: Duration,
         heartbeat: Duration = .seconds(1)) throws {
        self.connections = connections
        self.slotsPerConnection = slotsPerConnection
        self.pageTime = pageTime
        context = try ZMQContext()
        loop = SocketLoop(context: context, name: "bench.fake-workers") { error in log("fake workers: \(error)") }
        try loop.start { [self] control in
            for _ in 0..<connections {
                let dealer = try control.context.makeSocket(.dealer)
                try dealer.connect(endpoint)
                var id: SocketID?
                id = control.register(dealer, closeLingerMilliseconds: 0) { [unowned self] control, socket, frames in
                    self.received(frames, on: socket, control: control)
                }
                sockets.append(id!)
                let uid = UInt64.random(in: 1...UInt64.max)
                _ = try control.send(WorkerEnvelope(WorkerMessage.with {
                    $0.command = .ready(Ready.with {
                        $0.workerUid = uid
                        $0.slots = UInt32(slotsPerConnection)
                        $0.version = "ocr-bench-fake"
                        $0.heartbeatIntervalMs = UInt32(heartbeat.components.seconds * 1000)
                        $0.hostname = "fake"
                    })
                }).frames, on: id!)
            }
            control.scheduleRepeating(every: heartbeat) { [unowned self] control in
                self.sequence &+= 1
                let frames = WorkerEnvelope(WorkerMessage.with {
                    $0.command = .heartbeat(Heartbeat.with { $0.sequence = self.sequence })
                }).frames
                for socket in self.sockets { _ = try? control.send(frames, on: socket) }
            }
        }
    }

    private func received(_ frames: [[UInt8]], on socket: SocketID, control: SocketLoop.Control) {
        guard let message = try? WorkerEnvelope(frames: frames).decodeCoordinatorMessage() else { return }
        switch message.command {
        case .task(let task):
            counters.withLock { $0.tasks += 1 }
            // Like a real worker with `slotsPerConnection` engine threads: prefetched tasks wait
            // for a free slot.
            waiting[socket, default: []].append(task)
            startNext(on: socket, control: control)
        case .disconnect:
            counters.withLock { $0.disconnects += 1 }
        default:
            break
        }
    }

    private var waiting: [SocketID: [PageTask]] = [:]
    private var running: [SocketID: Int] = [:]

    private func startNext(on socket: SocketID, control: SocketLoop.Control) {
        while running[socket, default: 0] < slotsPerConnection, var queue = waiting[socket], !queue.isEmpty {
            let task = queue.removeFirst()
            waiting[socket] = queue
            running[socket, default: 0] += 1
            control.schedule(after: pageTime) { [unowned self] control in
                let result = WorkerMessage.with {
                    $0.command = .result(TaskResult.with {
                        $0.jobId = task.jobId
                        $0.pageIndex = task.pageIndex
                        $0.attempt = task.attempt
                        $0.outcome = .result(PageResult.with {
                            $0.pageIndex = task.pageIndex
                            $0.file = task.file
                            $0.filePage = task.filePage
                        })
                    })
                }
                _ = try? control.send(WorkerEnvelope(result).frames, on: socket)
                self.counters.withLock { $0.results += 1 }
                self.running[socket, default: 1] -= 1
                self.startNext(on: socket, control: control)
            }
        }
    }

    var snapshot: Counters { counters.withLock { $0 } }

    /// Says goodbye on every connection, then closes the sockets and the loop.
    func stop() {
        _ = try? loop.performAndWait { [self] control in
            let frames = WorkerEnvelope(WorkerMessage.with {
                $0.command = .disconnect(Disconnect.with { $0.reason = "benchmark over" })
            }).frames
            for socket in sockets { _ = try? control.send(frames, on: socket) }
        }
        Thread.sleep(forTimeInterval: 0.2)
        loop.stop()
        context.terminate()
    }
}
