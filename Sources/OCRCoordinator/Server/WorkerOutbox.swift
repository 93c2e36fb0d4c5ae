import OCRBasics

/// Frames bound for workers, kept in order per worker while a page ahead of them is being cut
/// (`SchedulerDirective.cutAndSendTask`): a Cancel must not overtake the Task it cancels. Loop
/// thread only; holds nothing for a worker with no cut outstanding.
struct WorkerOutbox {
    private enum Entry {
        case frames([[UInt8]])
        case cutting(ticket: UInt64)
    }

    private var queues: [WorkerIdentity: Deque<Entry>] = [:]
    private var nextTicket: UInt64 = 0

    /// Frames to send now (nothing is waiting ahead of them), or nil: queued behind a cut.
    mutating func enqueue(_ frames: [[UInt8]], to identity: WorkerIdentity) -> [[UInt8]]? {
        guard queues[identity] != nil else { return frames }
        queues[identity]!.append(.frames(frames))
        return nil
    }

    /// Reserves the place of a task whose page is being cut; `finish` fills it.
    mutating func reserve(for identity: WorkerIdentity) -> UInt64 {
        nextTicket += 1
        queues[identity, default: Deque()].append(.cutting(ticket: nextTicket))
        return nextTicket
    }

    /// Fills the place of `ticket` (nil frames: the cut failed, nothing to send there) and
    /// returns what may now be sent to `identity`, in order.
    mutating func finish(_ ticket: UInt64, for identity: WorkerIdentity, frames: [[UInt8]]?) -> [[[UInt8]]] {
        guard var queue = queues[identity] else { return [] }
        var filled = Deque<Entry>()
        while let entry = queue.popFirst() {
            if case .cutting(ticket) = entry {
                if let frames { filled.append(.frames(frames)) }
            } else {
                filled.append(entry)
            }
        }
        var ready: [[[UInt8]]] = []
        while let entry = filled.first, case .frames(let frames) = entry {
            _ = filled.popFirst()
            ready.append(frames)
        }
        queues[identity] = filled.isEmpty ? nil : filled
        return ready
    }
}
