import Foundation
import OCRBasics
import OCRClient
import OCRCoordinator
import OCRLog
import OCRPageEngine
import OCRWorker
import OCRZeroMQ

/// A whole cluster inside one process: a coordinator and one worker runtime with `slots` engine
/// threads, over `inproc://` endpoints of one ZeroMQ context, speaking the same protocol as
/// separate machines (the messages are the wire's, but no byte crosses a socket of the kernel).
/// `ocr-submit --local` (and the default when no coordinator is configured) uses it so a single
/// machine needs nothing else; tests use it as the in-process tier.
package final class LocalCluster: Sendable {
    package let coordinator: CoordinatorServer
    package let worker: WorkerRuntime
    /// The context every socket of the cluster and its clients lives in.
    private let context: ZMQContext
    /// Where clients connect: reachable only from this process, through `client()`.
    package var clientEndpoint: String { coordinator.clientEndpoint }

    /// Starts the coordinator, then the worker (which loads one engine per slot). Blocks: from
    /// async code, `start`.
    /// - Parameter slots: engine threads of the worker (one engine each).
    package init(slots: Int, engine: PageEngineFactory, logger: Logger, scheduler: SchedulerSettings = SchedulerSettings()) throws {
        let context = try ZMQContext()
        let name = "inproc://ocr.local.\(UInt64.random(in: 1...UInt64.max))"
        var configuration = CoordinatorConfiguration(logger: logger.named("coordinator"))
        configuration.clientEndpoint = name + ".clients"
        configuration.workerEndpoint = name + ".workers"
        configuration.context = context
        configuration.scheduler = scheduler
        let coordinator: CoordinatorServer
        do {
            coordinator = try CoordinatorServer(configuration)
        } catch {
            context.terminate()
            throw error
        }
        var workerConfiguration = WorkerConfiguration(coordinator: coordinator.workerEndpoint, slots: max(1, slots))
        workerConfiguration.context = context
        workerConfiguration.heartbeatInterval = scheduler.heartbeatInterval
        workerConfiguration.liveness = scheduler.liveness
        do {
            let worker = try WorkerRuntime(configuration: workerConfiguration, engine: engine, logger: logger.named("worker"))
            try worker.start()
            self.worker = worker
        } catch {
            coordinator.stop()
            context.terminate()
            throw error
        }
        self.coordinator = coordinator
        self.context = context
    }

    /// `init` from async code: on a thread of its own, since starting loads every slot's models.
    package static func start(slots: Int, engine: PageEngineFactory, logger: Logger,
                              scheduler: SchedulerSettings = SchedulerSettings()) async throws -> LocalCluster {
        try await onThreadOfItsOwn {
            try LocalCluster(slots: slots, engine: engine, logger: logger, scheduler: scheduler)
        }
    }

    /// A client of this cluster, in its context. Close it before `stop()`: the context ends only
    /// when every socket in it has.
    package func client(callTimeout: Duration = .seconds(60)) throws -> OCRClient {
        try OCRClient(endpoint: clientEndpoint, context: context, callTimeout: callTimeout)
    }

    /// `stop()` from async code: on a thread of its own, since it waits for the pages to drain.
    package func stopping() async {
        await onThreadOfItsOwn { self.stop() }
    }

    /// Stops the worker (its pages drain), then the coordinator, then the context (after every
    /// client is closed). Blocks: from async code, `stopping()`.
    package func stop() {
        worker.shutdown()
        worker.wait()
        coordinator.stop()
        context.terminate()
    }
}
