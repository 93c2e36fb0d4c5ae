import Foundation
import OCRBasics
import OCRCoordinator
import OCRLog
import OCRPageEngine
import OCRWorker

/// A whole cluster inside one process: a coordinator bound to loopback ports chosen by the
/// kernel and `workers` worker runtimes connected to it over TCP, exactly as separate machines
/// would be. `ocr-submit --local` (and the default when no coordinator is configured) uses it so
/// a single machine needs nothing else; tests use it as the in-process tier.
package final class LocalCluster: Sendable {
    package let coordinator: CoordinatorServer
    package let workers: [WorkerRuntime]
    /// Where clients connect.
    package var clientEndpoint: String { coordinator.clientEndpoint }

    /// - Parameters:
    ///   - workers: worker runtimes to start.
    ///   - slotsPerWorker: engine threads in each (one Tesseract per thread).
    package init(workers: Int, slotsPerWorker: Int = 1, engine: PageEngineFactory, logger: Logger,
                scheduler: SchedulerSettings = SchedulerSettings()) throws {
        var configuration = CoordinatorConfiguration(logger: logger.named("coordinator"))
        configuration.clientEndpoint = "tcp://127.0.0.1:*"
        configuration.workerEndpoint = "tcp://127.0.0.1:*"
        configuration.scheduler = scheduler
        let coordinator = try CoordinatorServer(configuration)
        var runtimes: [WorkerRuntime] = []
        do {
            for _ in 0..<max(1, workers) {
                var workerConfiguration = WorkerConfiguration(coordinator: coordinator.workerEndpoint, slots: max(1, slotsPerWorker))
                workerConfiguration.heartbeatInterval = scheduler.heartbeatInterval
                workerConfiguration.liveness = scheduler.liveness
                let runtime = try WorkerRuntime(configuration: workerConfiguration, engine: engine, logger: logger.named("worker"))
                try runtime.start()
                runtimes.append(runtime)
            }
        } catch {
            for runtime in runtimes {
                runtime.shutdown()
                runtime.wait()
            }
            coordinator.stop()
            throw error
        }
        self.coordinator = coordinator
        self.workers = runtimes
    }

    /// `init` from async code: on a thread of its own, since starting loads every slot's models.
    package static func start(workers: Int, slotsPerWorker: Int = 1, engine: PageEngineFactory, logger: Logger,
                              scheduler: SchedulerSettings = SchedulerSettings()) async throws -> LocalCluster {
        try await onThreadOfItsOwn {
            try LocalCluster(workers: workers, slotsPerWorker: slotsPerWorker, engine: engine, logger: logger, scheduler: scheduler)
        }
    }

    /// `stop()` from async code: on a thread of its own, since it waits for the pages to drain.
    package func stopping() async {
        await onThreadOfItsOwn { self.stop() }
    }

    /// Stops the workers (their pages drain), then the coordinator. Blocks: from async code,
    /// `stopping()`.
    package func stop() {
        for worker in workers { worker.shutdown() }
        for worker in workers { worker.wait() }
        coordinator.stop()
    }
}
