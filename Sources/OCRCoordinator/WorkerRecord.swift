import OCRWire

/// A task a worker holds: (job, page).
struct TaskKey: Hashable, Sendable {
    var jobID: String
    var page: Int
}

/// A registered worker.
///
/// ## Worker states (legal transitions)
/// ```
/// (unknown) --Ready (new identity, uid != 0, slots > 0)--> REGISTERED
///           (a Ready whose uid is registered under another identity first removes that one:
///            the process reconnected with a fresh socket)
/// REGISTERED, held < capacity: AVAILABLE, in the LRU queue (front = least recently used)
/// REGISTERED, held == capacity: FULL, out of the queue until a result frees a credit
/// REGISTERED --gives a page back (UNAVAILABLE/CANCELLED)--> GIVING BACK: no more tasks (it is
///                                              shutting down); its results are still taken
/// REGISTERED --TaskResult for a task it does not hold--> (removed) held pages requeued, Disconnect
/// REGISTERED --Disconnect-->                 (removed) held pages requeued, no failure counted
/// REGISTERED --silent > liveness x interval--> (removed) held pages requeued as failed attempts,
///                                              worker gets Disconnect
/// REGISTERED --second Ready / bad frame-->   (removed) held pages requeued, worker gets Disconnect
/// (unknown) --anything but Ready-->          (unknown) gets Disconnect (it must send Ready afresh)
/// ```
/// `capacity = slots + prefetch + extra`, where `extra` (adaptive prefetch, at most
/// `adaptivePrefetchLimit - prefetch`) grows only for workers whose results come back faster than
/// the pipeline target; `held.count <= capacity` when a task is sent (credit-based dispatch; a
/// shrinking window only stops new sends, it never takes tasks back).
struct WorkerRecord: Sendable {
    let serial: Int
    let identity: WorkerIdentity
    /// The CURVE key its connection authenticated with ("" without CURVE).
    var peerKey = ""
    let uid: UInt64
    let slots: Int
    /// `slots + prefetch`: the window every worker starts with and slow pages keep.
    let baseCapacity: Int
    /// Adaptive extra window (see `SchedulerSettings.adaptivePrefetchLimit`).
    var extra = 0
    /// The most tasks the worker says it accepts (`Ready.max_tasks`; Int.max when it did not say).
    var maxTasks = Int.max
    var capacity: Int { min(baseCapacity + extra, maxTasks) }
    /// When the previous result arrived, and the mean gap between results (seconds).
    var lastResultAt: Duration?
    var meanResultGap: Double?
    var resultsMeasured = 0
    /// Installed languages as announced (`Ready.languages`); empty: the worker did not say (a
    /// built-in test engine), and it is offered pages of every language.
    let languages: [String]
    private let languageSet: Set<String>
    /// The engines it runs (`Ready.engines`; "tesseract" when it announced none): it is offered
    /// only pages of jobs for one of them.
    var engines: [String] = [WorkerRecord.defaultEngine]
    /// The engine of workers that name none and jobs that ask for none.
    static let defaultEngine = "tesseract"
    let version: String
    let hostname: String
    /// `Ready.labels`, shown by ClusterStatus.
    var labels: [String: String] = [:]
    /// Silent longer than this: dead.
    let expiry: Duration
    var lastSeen: Duration
    /// Tasks sent and not yet answered, with their attempt. Answered by a result (any outcome).
    var held: [TaskKey: UInt32] = [:]
    /// In the LRU queue.
    var queued = false
    /// It gave a page back: it is shutting down (or full), so it gets no more tasks.
    var givingBack = false
    var pagesDone: UInt64 = 0

    var hasCredit: Bool { !givingBack && held.count < capacity }
    /// Every slot is running a task: another one would wait in the worker's queue.
    var slotsFull: Bool { held.count >= slots }

    init(serial: Int, identity: WorkerIdentity, uid: UInt64, slots: Int, baseCapacity: Int, languages: [String],
         version: String, hostname: String, expiry: Duration, lastSeen: Duration) {
        self.serial = serial
        self.identity = identity
        self.uid = uid
        self.slots = slots
        self.baseCapacity = baseCapacity
        self.languages = languages
        self.languageSet = Set(languages)
        self.version = version
        self.hostname = hostname
        self.expiry = expiry
        self.lastSeen = lastSeen
    }

    /// Whether the worker runs `engine`.
    func runs(_ engine: String) -> Bool { engines.contains(engine) }

    /// Whether the worker can recognise a page that needs every one of `needed`.
    func serves(_ needed: [String]) -> Bool {
        languageSet.isEmpty || needed.allSatisfy(languageSet.contains)
    }
}
