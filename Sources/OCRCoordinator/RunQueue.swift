import OCRBasics


/// Jobs with pending pages, by priority: higher priority first, jobs of equal priority take
/// turns one page at a time (round-robin), so a 1-page job waits for at most one page of each
/// other job of its priority. O(1) per page (O(p) when a priority level appears or empties;
/// p is the number of distinct priorities in use, a handful).
struct RunQueue: Sendable {
    private var levels: [Int32: Deque<String>] = [:]
    /// Priorities with a non-empty level, highest first.
    private var priorities: [Int32] = []

    var isEmpty: Bool { priorities.isEmpty }

    mutating func append(_ jobID: String, priority: Int32) {
        openLevel(priority)
        levels[priority]!.append(jobID)
    }

    /// Puts a job popped by `popFirst` back at the front of its level: it keeps its turn (a job
    /// no free worker could take must not lose its place to the jobs after it).
    mutating func prepend(_ jobID: String, priority: Int32) {
        openLevel(priority)
        levels[priority]!.prepend(jobID)
    }

    private mutating func openLevel(_ priority: Int32) {
        guard levels[priority] == nil else { return }
        levels[priority] = Deque()
        let at = priorities.firstIndex { $0 < priority } ?? priorities.endIndex
        priorities.insert(priority, at: at)
    }

    /// The job whose turn it is (removed; the caller appends it again if it has more pages).
    mutating func popFirst() -> (jobID: String, priority: Int32)? {
        guard let priority = priorities.first else { return nil }
        let jobID = levels[priority]!.popFirst()!
        if levels[priority]!.isEmpty {
            levels[priority] = nil
            priorities.removeFirst()
        }
        return (jobID, priority)
    }
}
