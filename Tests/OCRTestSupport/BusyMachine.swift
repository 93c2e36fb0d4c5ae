import Foundation
import Synchronization

/// Keeps every core busy while `body` runs: a result that depends on a budget must come out the
/// same on a loaded machine as on an idle one (budgets are counted in work, never in time).
/// Spins `threads` threads of arithmetic (by default one more than the cores, so the code
/// under test always competes for a core) and stops them when `body` returns or throws.
package func whileTheMachineIsBusy<T>(threads: Int = ProcessInfo.processInfo.activeProcessorCount + 1,
                                      _ body: () async throws -> T) async rethrows -> T {
    let stop = Box(false)
    for _ in 0..<threads {
        Thread.detachNewThread {
            var x = 0.0
            while !stop.current { for i in 0..<100_000 { x += sin(Double(i)) } }
            if x.isNaN { print(x) }  // Keeps the loop from being optimised away.
        }
    }
    defer { stop.with { $0 = true } }
    return try await body()
}
