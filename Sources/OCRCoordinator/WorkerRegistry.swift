import OCRBasics

/// The scheduler's connected workers in one structure: each found by its serial, its
/// connection's identity or its uid, the order in which those with credit are offered pages,
/// and which language lists any of them serves. The indexes change only together, here.
struct WorkerRegistry: Sendable {
    private var records: [Int: WorkerRecord] = [:]
    private var serialByIdentity: [WorkerIdentity: Int] = [:]
    private var serialByUID: [UInt64: Int] = [:]
    private var nextSerial = 1
    /// Workers with credit, least recently used first. Entries are checked when popped (a
    /// worker may have gone, or have been offered already).
    var offered = Deque<Int>()
    /// Whether any connected worker serves a language list (`+`-joined); cleared whenever a
    /// worker comes or goes.
    private var servedByAny: [String: Bool] = [:]

    /// `slots + prefetch` summed over the connected workers: the pages their windows take
    /// before any adaptive widening.
    private(set) var baseCapacityTotal = 0

    var isEmpty: Bool { records.isEmpty }
    var count: Int { records.count }
    /// Every worker, by serial (the order they connected in).
    var all: [WorkerRecord] { records.values.sorted { $0.serial < $1.serial } }
    var serials: [Int] { records.keys.sorted() }

    func serial(of identity: WorkerIdentity) -> Int? { serialByIdentity[identity] }
    func serial(ofUID uid: UInt64) -> Int? { serialByUID[uid] }
    func record(_ serial: Int) -> WorkerRecord? { records[serial] }

    /// The worker with `serial`, which must be registered (serials come from this registry).
    subscript(serial: Int) -> WorkerRecord {
        get { records[serial]! }
        _modify { yield &records[serial]! }
    }

    /// Registers the worker `make` builds with the next serial, offered pages last.
    mutating func add(_ make: (_ serial: Int) -> WorkerRecord) -> Int {
        let serial = nextSerial
        nextSerial += 1
        let worker = make(serial)
        records[serial] = worker
        baseCapacityTotal += worker.baseCapacity
        serialByIdentity[worker.identity] = serial
        serialByUID[worker.uid] = serial
        servedByAny.removeAll()
        offered.append(serial)
        return serial
    }

    /// Forgets worker `serial` (its `offered` entry is skipped when popped).
    mutating func remove(_ serial: Int) -> WorkerRecord? {
        guard let worker = records.removeValue(forKey: serial) else { return nil }
        baseCapacityTotal -= worker.baseCapacity
        servedByAny.removeAll()
        serialByIdentity[worker.identity] = nil
        if serialByUID[worker.uid] == serial { serialByUID[worker.uid] = nil }
        return worker
    }

    /// Whether any connected worker serves every language of `needed` (remembered until a
    /// worker comes or goes).
    mutating func anyServes(_ needed: [String]) -> Bool {
        let key = needed.joined(separator: "+")
        if let served = servedByAny[key] { return served }
        let served = records.values.contains { $0.serves(needed) }
        servedByAny[key] = served
        return served
    }
}
