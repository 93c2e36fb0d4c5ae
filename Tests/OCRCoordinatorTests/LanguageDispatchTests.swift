import OCRCoordinator
import OCRWire
import Testing

/// Pages go to workers that have their job's languages (`Ready.languages`).
@Suite struct LanguageDispatchTests {
    static func languages(_ spec: String) -> RecognitionOptions { .with { $0.languages = spec } }

    @Test func aPageGoesOnlyToAWorkerWithEveryLanguageItsJobNeeds() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 2, languages: ["eng"])
        h.ready(2, slots: 2, languages: ["deu", "eng"])
        h.submit("de", pages: 4, options: Self.languages("eng+deu"))
        h.submit("en", pages: 4)
        var held: [UInt8: [PageTask]] = [:]
        for (to, task) in h.log.tasks { held[to.bytes[1], default: []].append(task) }
        // Worker 1 (eng only) is first in line but never gets a page of "de".
        #expect(held[1]!.allSatisfy { $0.jobId == "en" })
        #expect(held[1]!.count == 2)
        #expect(held[2]!.map(\.jobId).sorted() == ["de", "de"])
        // As worker 2 answers, it keeps taking "de" pages, which worker 1 cannot.
        var tasks = held[2]!
        var seen: [String] = []
        while let task = tasks.popLast() {
            seen.append("\(task.jobId):\(task.pageIndex)")
            tasks += h.succeed(2, task).tasks.filter { $0.to == h.worker(2) }.map(\.task)
        }
        #expect(seen.filter { $0.hasPrefix("de:") }.count == 4)
        #expect(!h.log.tasks.contains { $0.to == h.worker(1) && $0.task.jobId == "de" })
    }

    @Test func aJobPassedOverKeepsItsTurn() {
        // One slot each, no prefetch: "de" is first in the run queue. The eng-only worker takes
        // "en" meanwhile, but the moment the deu worker is free it gets "de", not "en".
        // (Both are submitted before any worker connects: a job for languages no connected
        // worker has is refused at submit.)
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.submit("de", pages: 3, options: Self.languages("deu"))
        h.submit("en", pages: 3)
        h.ready(2, slots: 1, languages: ["deu"])
        let first = h.log.tasks[0].task
        #expect(first.jobId == "de")
        h.ready(1, slots: 1, languages: ["eng"])
        #expect(h.log.tasks.last!.to == h.worker(1))
        #expect(h.log.tasks.last!.task.jobId == "en")
        let next = h.succeed(2, first).tasks
        #expect(next.map(\.task.jobId) == ["de"])
        #expect(next.map(\.to) == [h.worker(2)])
    }

    @Test func anIdleWorkerWithoutTheLanguageLeavesThePageWaitingForOneThatHasIt() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(2, slots: 1, languages: ["deu", "eng"])
        h.submit("de", pages: 2, options: Self.languages("deu"))
        let busy = h.log.tasks[0].task
        // The eng-only worker joins while page 1 of "de" waits: it is not given that page.
        #expect(h.ready(1, slots: 1, languages: ["eng"]).tasks.isEmpty)
        #expect(h.heartbeat(1).tasks.isEmpty)
        let next = h.succeed(2, busy).tasks
        #expect(next.count == 1)
        #expect(next[0].to == h.worker(2))
        #expect(next[0].task.pageIndex == 1)
        // ...and work for it still reaches it at once.
        let en = h.submit("en", pages: 1).tasks
        #expect(en.map(\.to) == [h.worker(1)])
    }

    @Test func aJobForALanguageNoConnectedWorkerHasIsRefusedAtSubmitNamingWhatIsInstalled() throws {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1, languages: ["eng"])
        h.ready(2, slots: 1, languages: ["deu", "eng"])
        let out = h.submit("fr", pages: 1, options: Self.languages("fra"))
        #expect(out.tasks.isEmpty)
        let reply = try #require(out.submitReplies.first)
        #expect(throws: OCRError.self) { try reply.get() }
        let refusal = try #require(reply.failureValue)
        #expect(refusal.code == .failedPrecondition)
        #expect(refusal.message.contains("fra") && refusal.message.contains("deu, eng"), "\(refusal.message)")
        // Languages a worker has are accepted; with no worker at all the job waits for one.
        #expect(h.submit("de", pages: 1, options: Self.languages("deu")).tasks.count == 1)
        var empty = SchedulerHarness { $0.prefetch = 0 }
        #expect(try #require(empty.submit("fr", pages: 1, options: Self.languages("fra")).submitReplies.first).failureValue == nil)
    }

    @Test func aWorkerThatAnnouncesNoLanguagesTakesEveryJob() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 3, languages: [])
        h.ready(2, slots: 1, languages: ["eng"])
        h.submit("x", pages: 4, options: Self.languages("chi_sim+jpn"))
        // Worker 2 has neither language, worker 1 said nothing: only worker 1 gets them.
        #expect(h.log.tasks.count == 3)
        #expect(h.log.tasks.allSatisfy { $0.to == h.worker(1) })
    }

    @Test func anEmptyLanguageListMeansEnglish() {
        var h = SchedulerHarness { $0.prefetch = 0 }
        h.ready(1, slots: 1, languages: ["deu"])
        h.ready(2, slots: 1, languages: ["eng"])
        let tasks = h.submit("plain", pages: 2).tasks
        #expect(tasks.map(\.to) == [h.worker(2)])
    }
}

extension Result {
    /// The error of a failure, nil for a success.
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
