import OCRBasics


/// Jobs with pending pages, in the order workers should take their pages: higher priority
/// first; within a priority the principals (job owners) take turns one page at a time, and
/// within a principal its jobs take turns one page at a time (round-robin at both levels).
///
/// So a client with one 1-page job waits for at most one page of each other client at its
/// priority, however many jobs or pages those clients queued: a 100,000-page upload, or a
/// thousand 1-page jobs from one key, takes its share of the workers and no more.
///
/// O(1) per page; O(p) when a priority level appears or empties (p distinct priorities, a
/// handful) and O(o) for `prepend` (o principals at that priority), which only runs when a
/// job was passed over for its languages.
struct RunQueue: Sendable {
    private struct Level: Sendable {
        /// Principals with queued jobs, whose turn is next first. A principal is here iff it
        /// has jobs in `jobs`.
        var turns = Deque<String>()
        var jobs: [String: Deque<String>] = [:]
    }

    private var levels: [Int32: Level] = [:]
    /// Priorities with a non-empty level, highest first.
    private var priorities: [Int32] = []

    var isEmpty: Bool { priorities.isEmpty }

    /// Queues `jobID` of `owner` behind that owner's other jobs; an owner new to the level
    /// takes its turn after those already waiting.
    mutating func append(_ jobID: String, priority: Int32, owner: String) {
        openLevel(priority)
        withInout(&levels[priority]!) { level in
            if level.jobs[owner] == nil {
                level.jobs[owner] = Deque()
                level.turns.append(owner)
            }
            level.jobs[owner]!.append(jobID)
        }
    }

    /// Puts a job popped by `popFirst` back where it was: its owner's turn is next again and the
    /// job is first among the owner's jobs (a job no free worker could take must not lose its
    /// place to the jobs after it).
    mutating func prepend(_ jobID: String, priority: Int32, owner: String) {
        openLevel(priority)
        withInout(&levels[priority]!) { level in
            if level.jobs[owner] == nil {
                level.jobs[owner] = Deque()
            } else {
                level.turns.removeFirst { $0 == owner }
            }
            level.turns.prepend(owner)
            level.jobs[owner]!.prepend(jobID)
        }
    }

    private mutating func openLevel(_ priority: Int32) {
        guard levels[priority] == nil else { return }
        levels[priority] = Level()
        let at = priorities.firstIndex { $0 < priority } ?? priorities.endIndex
        priorities.insert(priority, at: at)
    }

    /// The job whose turn it is (removed; the caller appends it again if it has more pages).
    /// Its owner's turn passes to the next principal.
    mutating func popFirst() -> (jobID: String, priority: Int32, owner: String)? {
        guard let priority = priorities.first else { return nil }
        let (jobID, owner, levelEmpty) = withInout(&levels[priority]!) { level in
            let owner = level.turns.popFirst()!
            let jobID = level.jobs[owner]!.popFirst()!
            if level.jobs[owner]!.isEmpty {
                level.jobs[owner] = nil
            } else {
                level.turns.append(owner)
            }
            return (jobID, owner, level.turns.isEmpty)
        }
        if levelEmpty {
            levels[priority] = nil
            priorities.removeFirst()
        }
        return (jobID, priority, owner)
    }
}
