import Testing
@testable import OCRCoordinator

/// The scheduler's workers: the three ways to find one agree, removal forgets all of them, and
/// "does any worker serve these languages" is answered again after a worker comes or goes.
@Suite struct WorkerRegistryTests {
    static func worker(_ serial: Int, _ id: UInt8, uid: UInt64, languages: [String]) -> WorkerRecord {
        WorkerRecord(serial: serial, identity: WorkerIdentity([id]), uid: uid, slots: 2, baseCapacity: 3, languages: languages,
                     version: "t", hostname: "h", expiry: .seconds(6), lastSeen: .zero)
    }

    @Test func identitiesUIDsAndSerialsAgreeUntilAWorkerIsRemoved() throws {
        var registry = WorkerRegistry()
        let a = registry.add { Self.worker($0, 1, uid: 0xA, languages: ["eng"]) }
        let b = registry.add { Self.worker($0, 2, uid: 0xB, languages: ["eng", "deu"]) }
        #expect(a != b && registry.count == 2 && registry.serials == [a, b])
        #expect(registry.serial(of: WorkerIdentity([2])) == b && registry.serial(ofUID: 0xA) == a)
        #expect(registry[b].uid == 0xB && registry.all.map(\.serial) == [a, b])
        registry[a].pagesDone += 1
        #expect(registry.record(a)?.pagesDone == 1)
        #expect(Array(registry.offered.elements) == [a, b], "offered pages in the order they came")

        let servedBefore = registry.anyServes(["deu"])
        #expect(servedBefore)
        let removed = registry.remove(b)
        #expect(removed?.uid == 0xB)
        #expect(registry.serial(of: WorkerIdentity([2])) == nil && registry.serial(ofUID: 0xB) == nil && registry.record(b) == nil)
        let servedAfter = registry.anyServes(["deu"])
        #expect(!servedAfter, "asked again once the German worker left")
        let again = registry.remove(b)
        #expect(again == nil && registry.count == 1)
        let c = registry.add { Self.worker($0, 3, uid: 0xC, languages: ["deu"]) }
        #expect(c > b, "serials are never reused")
        let servedAgain = registry.anyServes(["deu"])
        #expect(servedAgain)
    }
}
