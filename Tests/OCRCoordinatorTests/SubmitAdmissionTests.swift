import Testing
@testable import OCRCoordinator

/// Whether a submission or a WatchJob stream is taken: pure values over the figures the shell
/// has, each refusal RESOURCE_EXHAUSTED naming its limit (the shell's tests show them end to end).
@Suite struct SubmitAdmissionTests {
    @Test func eachLimitRefusesWithItsOwnReasonAndTheFirstOneWins() {
        let open = SubmitAdmission(journalBudgetBytes: 1_000, maxQueuedPages: 10, maxPagesPerPrincipal: 5, maxSplittingBytes: 100)
        #expect(open.refusal(forBytes: 50) == nil)
        var full = open
        full.queuedPages = 10
        #expect(full.refusal(forBytes: 1)?.details["max_queued_pages"] == "10")
        var quota = open
        quota.unfinishedPagesOfPrincipal = 5
        #expect(quota.refusal(forBytes: 1)?.details["max_pages_per_client"] == "5")
        var budget = open
        budget.journalBytes = 1_000
        #expect(budget.refusal(forBytes: 1)?.details["journal_budget_bytes"] == "1000")
        var trouble = budget
        trouble.journalTrouble = "disk full"
        #expect(trouble.refusal(forBytes: 1)?.message.contains("disk full") == true, "journal trouble is said first")
        #expect([full, quota, budget, trouble].allSatisfy { $0.refusal(forBytes: 1)?.code == .resourceExhausted })
    }

    @Test func aLargeSubmissionWaitsOnlyBehindOthers() {
        var admission = SubmitAdmission(maxSplittingBytes: 100)
        #expect(admission.refusal(forBytes: 500) == nil, "alone, even one over the limit is split")
        admission.splittingBytes = 60
        #expect(admission.refusal(forBytes: 40) == nil)
        #expect(admission.refusal(forBytes: 41)?.message.hasPrefix("60 bytes of other submissions") == true)
    }

    @Test func streamsAreCountedPerPrincipal() {
        var streams = StreamQuota(limit: 2)
        #expect(streams.open(for: "a") == nil && streams.open(for: "a") == nil)
        let third = streams.open(for: "a")
        #expect(third?.code == .resourceExhausted && third?.details["open_streams"] == "2")
        #expect(streams.open(for: "b") == nil, "another principal has its own count")
        streams.close(for: "a")
        #expect(streams.open(for: "a") == nil)
        streams.close(for: "b")
        #expect(streams.open["b"] == nil, "a principal without streams is forgotten")
    }
}
