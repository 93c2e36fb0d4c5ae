import Foundation
import OCRAPIJSON
import OCRBasics
import OCRClient
import OCRCoordinator
import OCRHTTP
import OCRLog
import OCRWire

/// The `/v1` handlers for one request, as `principal`: each is the RPC of the same name, so
/// access rules, limits, idempotency and errors are the coordinator's own. They run on the
/// request's connection thread and wait for the coordinator there.
struct JobsAPI {
    let link: OCRClient
    let coordinator: CoordinatorServer
    let principal: String
    let logger: Logger

    /// `POST /v1/jobs`: 202 with the job (201 semantics do not fit: it is not done yet) and its
    /// URL in `Location`; 200 with the earlier job when `job_key` matched one.
    func submit(_ http: HTTPRequest) -> HTTPResponse {
        answer {
            let form = try SubmitForm(http)
            let request = form.request
            let response: SubmitJobResponse = try waitFor { [link, principal] in try await link.call(.submitJob, request, as: principal) }
            let job = try getJob(response.jobId, pages: false)
            var headers = [("Location", "/v1/jobs/\(job.jobId)")]
            if !job.state.isFinal { headers.append(Self.pollAgain) }
            return APIJSON.response(response.existing ? 200 : 202, JobJSON.job(job), headers: headers)
        }
    }

    /// When a client polling a job that is not finished should ask again (seconds): pages take
    /// about a second each, and the event stream tells the moment without polling.
    static let pollAgain = (name: "Retry-After", value: "1")

    /// `GET /v1/jobs?state=RUNNING&limit=50&page_token=...`: newest first, a page at a time
    /// (`nextPageToken` in the answer, "" on the last page).
    func list(_ http: HTTPRequest) -> HTTPResponse {
        answer {
            var request = ListJobsRequest()
            request.limit = 100
            request.pageToken = http.query["page_token"] ?? ""
            if let limit = http.query["limit"] {
                guard let n = UInt32(limit), (1...10_000).contains(n) else { throw OCRError(.invalidArgument, "limit must be 1...10000") }
                request.limit = n
            }
            let names = http.query["state"].map { $0.split(separator: ",", omittingEmptySubsequences: false) } ?? []
            for name in names {
                guard let state = JobState(apiName: String(name)) else {
                    throw OCRError(.invalidArgument, "state must be QUEUED, RUNNING, SUCCEEDED, PARTIAL, FAILED, CANCELLED or EXPIRED, not '\(name)'")
                }
                request.states.append(state)
            }
            let response: ListJobsResponse = try waitFor { [link, principal, request] in try await link.call(.listJobs, request, as: principal) }
            return APIJSON.response(200, .object([("jobs", .array(response.jobs.map(JobJSON.job))),
                                                  ("nextPageToken", .string(response.nextPageToken))]))
        }
    }

    /// `GET /v1/jobs/{id}` (`?pages=true`: every page's state).
    func get(_ id: String, _ http: HTTPRequest) -> HTTPResponse {
        answer {
            let pages: Bool
            switch http.query["pages"] {
            case nil, "false"?: pages = false
            case "true"?: pages = true
            case let other?: throw OCRError(.invalidArgument, "pages must be true or false, not '\(other)'")
            }
            return APIJSON.response(200, JobJSON.job(try getJob(id, pages: pages)))
        }
    }

    /// `DELETE /v1/jobs/{id}`: deletes a finished job and its data (204); 409 while it runs
    /// (cancel it first), as google.longrunning's DeleteOperation.
    func delete(_ id: String) -> HTTPResponse {
        answer {
            let request = DeleteJobRequest.with { $0.jobId = id }
            let _: DeleteJobResponse = try waitFor { [link, principal] in try await link.call(.deleteJob, request, as: principal) }
            logger.info("job deleted over HTTP", ["job": id, "principal": principal])
            return HTTPResponse(status: 204, headers: [], body: .bytes([]))
        }
    }

    /// `POST /v1/jobs/{id}:cancel` (or `/cancel`): cancels it; the job as it is after the cancel.
    func cancel(_ id: String) -> HTTPResponse {
        answer {
            let request = CancelJobRequest.with { $0.jobId = id }
            let job: Job = try waitFor { [link, principal] in try await link.call(.cancelJob, request, as: principal) }
            logger.info("cancel requested over HTTP", ["job": id, "principal": principal])
            return APIJSON.response(200, JobJSON.job(job))
        }
    }

    /// `GET /v1/jobs/{id}/events`: Server-Sent Events until the job finishes (`EventFeed`),
    /// from the page `Last-Event-ID` (or `?from_page=`) names.
    func events(_ id: String, _ http: HTTPRequest) -> HTTPResponse {
        answer {
            _ = try getJob(id, pages: false)  // 404 before a 200 stream starts
            // Both are checked; the header (what a reconnecting browser sends) wins.
            var fromPage: UInt32 = 0
            for (name, value) in [("from_page", http.query["from_page"]), ("Last-Event-ID", http.header("Last-Event-ID"))] {
                guard let value else { continue }
                guard let page = UInt32(value.trimmingCharacters(in: .whitespaces)), page <= 999_999_999 else {
                    throw OCRError(.invalidArgument, "\(name) must be a page index 0...999999999, not '\(value)'")
                }
                fromPage = page
            }
            let feed = EventFeed(link.events(jobID: id, fromPage: fromPage, as: principal), fromPage: fromPage)
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                                                       ("X-Accel-Buffering", "no")], body: .stream(feed.stream))
        }
    }

    /// `GET /v1/jobs/{id}/document?format=txt|json|hocr|alto|tsv|page|pdf|markdown|html`: the merged document
    /// of a finished job (409 FAILED_PRECONDITION while it runs).
    func document(_ id: String, _ http: HTTPRequest) -> HTTPResponse {
        answer {
            let name = http.query["format"] ?? "json"
            guard let format = DocumentFormat(rawValue: name.lowercased()) else {
                throw OCRError(.invalidArgument, "format must be one of \(DocumentFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            let job = try getJob(id, pages: false)
            guard job.state.isFinal else {
                return APIJSON.error(OCRError(.failedPrecondition, "job \(id) is \(job.state.apiName) (\(job.pagesDone + job.pagesFailed) of \(job.pageCount) pages finished); "
                                              + "its document is ready when it finishes (follow /v1/jobs/\(id)/events)"), extraHeaders: [Self.pollAgain])
            }
            // A job that ended with no page recognised has no document: say why, not a blank one.
            guard job.pagesDone > 0 else {
                throw OCRError(.failedPrecondition, "job \(id) ended \(job.state.apiName) with no page recognised"
                               + (job.status.map { ": \($0.message)" } ?? ""), details: ["state": job.state.apiName])
            }
            let page = try http.query["page"].map { text throws(OCRError) -> Int in
                guard let n = Int(text), (1...Int(job.pageCount)).contains(n) else {
                    throw OCRError(.outOfRange, "page must be 1...\(job.pageCount), not '\(text)'")
                }
                return n
            }
            var document = try collect(job)
            if let page { document = document.onlyPage(page - 1) }
            // Every document says how its job ended: PARTIAL and CANCELLED ones lack pages.
            let state = ("X-OCR-Job-State", job.state.apiName)
            let base = page.map { "\(id)-page-\($0)" } ?? id
            let disposition = ("Content-Disposition", "inline; filename=\"\(base).\(format.fileExtension)\"")
            switch format {
            case .pdf:
                let (pdf, problems) = try document.searchablePDF()
                for problem in problems { logger.warning("searchable PDF", ["job": id, "problem": problem]) }
                return HTTPResponse(status: 200, headers: [("Content-Type", format.mediaType), disposition, state,
                                                           ("X-OCR-Problems", "\(problems.count)")], body: .bytes(Array(pdf)))
            case .page where page == nil && job.pageCount > 1:
                // PAGE XML is one document per page: several are a zip, one file per page.
                let files = document.pageXML().enumerated().map { (name: String(format: "%@-%04d.xml", id, $0.offset + 1), bytes: Array($0.element.utf8)) }
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/zip"), state,
                                                           ("Content-Disposition", "attachment; filename=\"\(id)-page-xml.zip\"")],
                                    body: .bytes(ZipArchive.stored(files)))
            default:
                return HTTPResponse(status: 200, headers: [("Content-Type", format.mediaType), disposition, state],
                                    body: .bytes(Array(try format.render(document).utf8)))
            }
        }
    }

    /// `GET /v1/cluster`: workers, slots, queue and recent page failures (the status page's feed).
    func cluster() -> HTTPResponse {
        answer {
            let status: ClusterStatusResponse = try waitFor { [link, principal] in try await link.call(.clusterStatus, ClusterStatusRequest(), as: principal) }
            let failures = coordinator.metrics.recentFailures()
            return APIJSON.response(200, .object(JobJSON.cluster(status) + [
                ("throughput", .array(coordinator.metrics.throughputHistory().map { .double($0) })),
                ("recentFailures", .array(failures.filter { $0.owner == principal || coordinator.isAdmin(principal) }.map { failure in
                    .object([("at", JobJSON.timestamp(failure.unixMs)), ("jobId", .string(failure.jobID)), ("pageIndex", .int(failure.page)),
                             ("status", JobJSON.status(failure.status))])
                })),
            ]))
        }
    }

    // MARK: Plumbing

    private func getJob(_ id: String, pages: Bool) throws -> Job {
        let request = GetJobRequest.with { $0.jobId = id; $0.includePageStates = pages }
        return try waitFor { [link, principal] in try await link.call(.getJob, request, as: principal) }
    }

    /// The finished job's document: its recorded events from page 0 to JobFinished.
    private func collect(_ job: Job) throws -> Document {
        let languages = job.options?.languages.split(separator: "+").map(String.init) ?? []
        let events = link.events(jobID: job.jobId, fromPage: 0, as: principal)
        return try waitFor {
            var document = Document(pageCount: Int(job.pageCount), languages: languages)
            for try await event in events {
                document.apply(event)
                if event.finished != nil { break }
            }
            return document
        }
    }

    private func answer(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as OCRError {
            return APIJSON.error(error)
        } catch {
            return APIJSON.error(OCRError(.internal, "\(error)"))
        }
    }
}
