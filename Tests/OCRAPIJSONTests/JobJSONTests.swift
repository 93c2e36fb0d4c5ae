import Foundation
import OCRAPIJSON
import OCRBasics
import OCRWire
import Testing

/// The API's JSON shapes (what `/v1/jobs/{id}`, webhooks and `ocr-submit jobs --json` print),
/// parsed back by Foundation.
@Suite struct JobJSONTests {
    static func parsed(_ json: JSON) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
    }

    @Test func aFinishedJobHasItsTimesStatusAndLinks() throws {
        let job = Job.with {
            $0.jobId = "j1"; $0.jobKey = "k"; $0.state = .partial; $0.pageCount = 3; $0.pagesDone = 2; $0.pagesFailed = 1
            $0.files = ["a.tif"]; $0.createdUnixMs = 1_700_000_000_000; $0.finishedUnixMs = 1_700_000_002_500
            $0.status = Status.with { $0.code = .deadlineExceeded; $0.message = "page timeout"; $0.file = "a.tif"; $0.pageIndex = 2 }
            $0.pageStates = [.done, .done, .failed]
        }
        let object = try Self.parsed(JobJSON.job(job))
        #expect(object["id"] as? String == "j1" && object["state"] as? String == "PARTIAL" && object["pageCount"] as? Int == 3)
        #expect(object["createdAt"] as? String == "2023-11-14T22:13:20.000Z" && object["durationSeconds"] as? Double == 2.5)
        let status = try #require(object["status"] as? [String: Any])
        #expect(status["code"] as? String == "DEADLINE_EXCEEDED" && status["file"] as? String == "a.tif" && status["pageIndex"] as? Int == 2)
        #expect(object["pageStates"] as? [String] == ["DONE", "DONE", "FAILED"])
        #expect((object["links"] as? [String: String])?["document"] == "/v1/jobs/j1/document")
    }

    @Test func aRunningJobHasNoEndYet() throws {
        let object = try Self.parsed(JobJSON.job(Job.with { $0.jobId = "j2"; $0.state = .running; $0.createdUnixMs = 1 }))
        #expect(object["finishedAt"] is NSNull && object["durationSeconds"] is NSNull && object["status"] is NSNull)
        #expect(object["pageStates"] == nil, "only when asked for")
        #expect(JobState.unrecognized(42).apiName == "STATE_42")
    }
}
