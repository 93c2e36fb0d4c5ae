import OCRWire

/// A fully populated value of one message type, under a stable id (the file name used by the
/// conformance run).
struct Fixture: Sendable {
    var id: String
    var message: any ProtoMessage
    /// Full proto name, e.g. "ocr.v1.PageResult" (every message is top-level in package ocr.v1).
    var typeName: String { "ocr.v1." + String(describing: type(of: message)).replacingOccurrences(of: "Ocr_V1_", with: "") }

    init(_ id: String, _ message: any ProtoMessage) {
        self.id = id
        self.message = message
    }
}

/// Extreme and awkward values, shared by the fixtures.
enum Sample {
    /// Non-ASCII: Latin with diacritics, CJK, Hebrew (RTL), emoji incl. a ZWJ sequence, NUL, DEL,
    /// quote and backslash (escaped differently by every text format).
    static let text = "Grüße Ünïcödé — 日本語のテキスト 中文 한국어 עברית 😀👩‍👩‍👧 \u{0}\u{7F} \"q\" \\ tab\tnl\n"
    static let cjk = "認識結果"
    static let emoji = "🧾📄✅"
    /// Map entries: empty key, empty value, non-ASCII on both sides (NFC, so byte order and
    /// Swift's String order agree).
    static let map = ["": "empty key", "client": "ocr-submit/0.1", "言語": "日本語 😀", "z": "", "Émile": "Zoë"]
    /// 1 MiB of every byte value in a scrambled order.
    static let mebibyte: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }
    /// Every byte value once.
    static let allBytes: [UInt8] = (0...255).map { UInt8($0) }
    /// The NaN that text formats print as `nan` and parse back to (quiet, positive, no payload).
    static let nanFloat = Float(bitPattern: 0x7FC0_0000)
    static let nanDouble = Double(bitPattern: 0x7FF8_0000_0000_0000)
}

enum Fixtures {
    // MARK: page.proto

    static func box(_ x: Int32 = Int32.min, _ y: Int32 = Int32.max, _ w: UInt32 = UInt32.max, _ h: UInt32 = 1) -> BoundingBox {
        BoundingBox.with { $0.x = x; $0.y = y; $0.width = w; $0.height = h }
    }

    static func candidate(_ text: String = Sample.text, _ confidence: Float = 0.987_654_3) -> Candidate {
        Candidate.with { $0.text = text; $0.confidence = confidence }
    }

    static func symbol(_ text: String = "語", _ confidence: Float = -0.0) -> Symbol {
        Symbol.with { $0.text = text; $0.confidence = confidence; $0.box = box(-1, 2, 3, 4) }
    }

    static func word() -> Word {
        Word.with {
            $0.text = Sample.cjk
            $0.confidence = Float.leastNonzeroMagnitude  // a subnormal
            $0.box = box(-7, 0x3FFF_FFFF, 128, 16_383)
            $0.candidates = [candidate(), candidate("认识", Float.greatestFiniteMagnitude), candidate("", Sample.nanFloat)]
            $0.symbols = [symbol(), symbol("😀", Float.infinity), symbol("", -Float.infinity)]
            $0.fromDictionary = true
        }
    }

    static func line() -> TextLine {
        TextLine.with {
            $0.text = Sample.text
            $0.confidence = 0.5
            $0.box = box()
            $0.words = [word(), Word.with { $0.text = "x" }]
            $0.baseline = [Int32.min, -1, 0, 1, Int32.max]
        }
    }

    static func paragraph() -> Paragraph {
        Paragraph.with { $0.text = "¶"; $0.confidence = 1; $0.box = box(0, 0, 1, 1); $0.lines = [line(), TextLine()] }
    }

    static func block(_ type: BlockType = .table) -> Block {
        Block.with { $0.text = Sample.emoji; $0.confidence = 0.25; $0.box = box(); $0.type = type; $0.paragraphs = [paragraph()] }
    }

    static func timings() -> Timings {
        Timings.with {
            $0.decodeUs = UInt64.max; $0.preprocessUs = 1 << 63; $0.recognizeUs = 127; $0.totalUs = 128; $0.queueUs = 1
            $0.steps = [stepCost(), StepCost.with { $0.step = "recognize"; $0.cpuUs = UInt64.max }]
        }
    }

    static func stepCost() -> StepCost {
        StepCost.with { $0.step = "pass_" + Sample.emoji; $0.cpuUs = 1 << 32 }
    }

    static func pageResult(skew: Double = -0.0) -> PageResult {
        PageResult.with {
            $0.pageIndex = UInt32.max
            $0.file = "スキャン/ページ 😀.tiff"
            $0.filePage = 1
            $0.width = 2_480
            $0.height = 3_508
            $0.dpi = 300
            $0.rotationDegrees = Int32.min
            $0.skewDegrees = skew
            $0.timings = timings()
            $0.workerUid = UInt64.max
            $0.blocks = [block(), block(.unrecognized(77)), block(.unrecognized(-3))]
            $0.text = Sample.text
            $0.meanConfidence = 0.912_345_6
            $0.attempt = 3
            $0.textSource = .pdf
            $0.pdfImage = pdfImage()
            $0.pdfPage = Sample.allBytes
            $0.pageQuad = [Int32.min, -1, 0, 1, Int32.max, 4031, 3023, -7]  // zigzag extremes
            $0.dewarped = true
            $0.rules = [box(212, 530, 2052, 4), box(212, 530, 4, 2606), box()]
            $0.layout = layout()
        }
    }

    static func layoutText(_ text: String = Sample.text) -> LayoutText {
        LayoutText.with { $0.text = text; $0.box = box(-1, 2, 3, 4) }
    }

    static func layoutHeading(_ sizeRatio: Double = 1.75) -> LayoutHeading {
        LayoutHeading.with { $0.text = Sample.cjk; $0.box = box(); $0.sizeRatio = sizeRatio; $0.numberingDepth = UInt32.max }
    }

    static func layoutList() -> LayoutList {
        LayoutList.with {
            $0.ordered = true
            $0.box = box(10, 20, 300, 400)
            $0.items = [LayoutListItem.with { $0.marker = "•"; $0.text = Sample.emoji; $0.level = 5; $0.box = box() }, LayoutListItem()]
        }
    }

    static func layoutTable() -> LayoutTable {
        LayoutTable.with {
            $0.headerRows = 1
            $0.columnCount = 1024
            $0.box = box(0, 0, 2480, 1200)
            $0.rows = [
                LayoutTableRow.with { $0.cells = [layoutCell(), LayoutTableCell()] },
                LayoutTableRow(),
            ]
        }
    }

    static func layoutCell() -> LayoutTableCell {
        LayoutTableCell.with { $0.text = "$2,304.2"; $0.column = UInt32.max; $0.columnSpan = 2; $0.rowSpan = 3; $0.box = box(5, 6, 7, 8) }
    }

    static func layoutData(_ kind: DetectedDataKind = .phoneNumber) -> LayoutData {
        LayoutData.with { $0.kind = kind; $0.text = "(405) 680-3701"; $0.box = box() }
    }

    static func layout() -> PageLayout {
        PageLayout.with {
            $0.elements = [
                LayoutElement.with { $0.kind = .heading(layoutHeading()) },
                LayoutElement.with { $0.kind = .paragraph(layoutText()) },
                LayoutElement.with { $0.kind = .list(layoutList()) },
                LayoutElement.with { $0.kind = .table(layoutTable()) },
                LayoutElement.with { $0.kind = .caption(layoutText("Table 2: " + Sample.cjk)) },
                LayoutElement.with { $0.kind = .footnote(layoutText("1 " + Sample.emoji)) },
                LayoutElement(),
            ]
            $0.topLines = [LayoutLine.with { $0.text = "Annual Report 2014"; $0.box = box(1, 1, 900, 40) }]
            $0.bottomLines = [LayoutLine.with { $0.text = "- 7 -"; $0.box = box() }, LayoutLine()]
            $0.detectedData = [layoutData(), layoutData(.unrecognized(-9)), LayoutData()]
        }
    }

    static func pdfImage() -> PdfImage {
        PdfImage.with {
            $0.encoding = .ccittG4
            $0.width = UInt32.max
            $0.height = 1
            $0.bitsPerComponent = 8
            $0.components = 3
            $0.palette = Sample.allBytes
            $0.blackIs1 = true
            $0.data = Sample.mebibyte
            $0.dpiX = 204
            $0.dpiY = -.infinity
        }
    }

    // MARK: status.proto, rpc.proto

    static func status(_ code: StatusCode = .resourceExhausted) -> Status {
        Status.with {
            $0.code = code
            $0.message = Sample.text
            $0.file = Sample.cjk
            $0.pageIndex = Int32.min
            $0.details = Sample.map
        }
    }

    static func rpcHeader() -> RpcHeader {
        RpcHeader.with {
            $0.callId = UInt64.max
            $0.method = CoordinatorMethod.watchJob.rawValue
            $0.kind = .streamEnd
            $0.status = status()
            $0.timeoutMs = Int64.min
            $0.metadata = Sample.map
        }
    }

    // MARK: options.proto

    static func normalizedRect() -> Ocr_V1_NormalizedRect {
        Ocr_V1_NormalizedRect.with { $0.x = -0.0; $0.y = .infinity; $0.width = -.infinity; $0.height = Sample.nanDouble }
    }

    static func options(correction: Bool = false) -> RecognitionOptions {
        RecognitionOptions.with {
            $0.languages = "eng+deu+jpn"
            $0.engine = "rapidocr-v4.onnx"
            $0.level = .fast
            $0.languageCorrection = correction  // proto3 optional: false is present, not default
            $0.pageSegmentationMode = .rawLine
            $0.dpi = UInt32.max
            $0.candidates = 10
            $0.minimumConfidence = Float.greatestFiniteMagnitude
            $0.characterWhitelist = "0123456789€£¥"
            $0.regionOfInterest = normalizedRect()
            $0.minimumTextHeight = -Float.leastNormalMagnitude
            $0.detectOnly = true
            $0.reportCharacterBoxes = true
            $0.deskew = true
            $0.autoRotate = true
            $0.binarization = .unrecognized(Int32.max)
            $0.pageTimeoutMs = 1
            $0.pageRanges = [PageRange.with { $0.first = 1; $0.last = UInt32.max }, PageRange.with { $0.first = 7 }]
            $0.customWords = [Sample.cjk, "", Sample.emoji]
            $0.maxPagePixels = UInt64.max
            $0.pdfTextLayer = .forceOcr
            $0.includePdfPage = true
            $0.engineMode = .combined
            $0.pageDetection = .off
        }
    }

    // MARK: job.proto

    static func inputFile(_ content: [UInt8] = Sample.mebibyte, _ format: ImageFormat = .pdf) -> InputFile {
        InputFile.with { $0.name = "入力/😀 file.pdf"; $0.content = content; $0.format = format }
    }

    static func job() -> Job {
        Job.with {
            $0.jobId = "job-ユニーク"
            $0.jobKey = Sample.text
            $0.state = .expired
            $0.pageCount = UInt32.max
            $0.pagesDone = 1
            $0.pagesFailed = 0x8000_0000
            $0.priority = Int32.min
            $0.createdUnixMs = Int64.min
            $0.finishedUnixMs = Int64.max
            $0.files = ["a.png", Sample.cjk, ""]
            $0.status = status(.unrecognized(1_000))
            $0.pageStates = [.pending, .unrecognized(99), .unrecognized(-5), .unspecified, .cancelled]
            $0.options = options(correction: true)
        }
    }

    static func pageFailed() -> PageFailed {
        PageFailed.with { $0.pageIndex = UInt32.max; $0.file = Sample.emoji; $0.filePage = 2; $0.status = status(.internal); $0.attempts = 3 }
    }

    static func jobProgress(_ rate: Double = Double.greatestFiniteMagnitude) -> JobProgress {
        JobProgress.with { $0.pageCount = 10; $0.pagesDone = 4; $0.pagesFailed = 1; $0.pagesRunning = UInt32.max; $0.pagesPerSecond = rate }
    }

    static func jobFinished() -> JobFinished {
        JobFinished.with { $0.state = .unrecognized(-1); $0.status = status(); $0.pagesDone = UInt32.max; $0.pagesFailed = 1 }
    }

    static func jobEvent(_ event: JobEvent.Event?) -> JobEvent {
        JobEvent.with { $0.jobId = "job-1"; $0.sequence = UInt64.max; $0.event = event }
    }

    // MARK: coordinator.proto

    static func workerInfo() -> WorkerInfo {
        WorkerInfo.with {
            $0.uid = UInt64.max
            $0.address = "tcp://[::1]:5555"
            $0.slots = 2
            $0.busy = UInt32.max
            $0.languages = ["eng", "jpn_vert", ""]
            $0.version = "0.1.0-ß"
            $0.pagesDone = 1 << 63
            $0.lastSeenMsAgo = Int64.min
            $0.hostname = "worker-7.example"
            $0.labels = ["zone": "b", "gpu": ""]
            $0.engines = ["tesseract", "", "echo"]
        }
    }

    // MARK: worker.proto

    static func ready() -> Ready {
        Ready.with {
            $0.workerUid = 0x8000_0000_0000_0001
            $0.slots = UInt32.max
            $0.languages = ["eng", "osd", Sample.cjk]
            $0.version = "0.1.0"
            $0.heartbeatIntervalMs = 1_000
            $0.hostname = "ホスト-1"
            $0.labels = Sample.map
            $0.maxTasks = 4_000_000_000
            $0.engines = ["tesseract", Sample.cjk]
        }
    }

    static func heartbeat() -> Heartbeat { Heartbeat.with { $0.sequence = UInt32.max; $0.busy = 3 } }

    static func pageTask(_ content: [UInt8] = Sample.mebibyte) -> PageTask {
        PageTask.with {
            $0.jobId = "job-ジョブ"
            $0.pageIndex = UInt32.max
            $0.attempt = 2
            $0.file = Sample.text
            $0.filePage = 0x7FFF_FFFF
            $0.content = content
            $0.format = .unrecognized(Int32.min)
            $0.options = options()
            $0.remainingMs = UInt64.max
            $0.queuedUs = 1
        }
    }

    static func taskResult(_ outcome: TaskResult.Outcome?) -> TaskResult {
        TaskResult.with { $0.jobId = "job-1"; $0.pageIndex = 5; $0.attempt = UInt32.max; $0.outcome = outcome }
    }

    static func cancelTask() -> CancelTask { CancelTask.with { $0.jobId = Sample.emoji; $0.pageIndex = UInt32.max } }
    static func disconnect() -> Disconnect { Disconnect.with { $0.reason = Sample.text } }
    static func welcome() -> Welcome { Welcome.with { $0.heartbeatIntervalMs = UInt32.max; $0.liveness = 3; $0.slots = 4096 } }

    // MARK: every message

    /// Every message type at least once, every field set to a non-default value by some fixture,
    /// every oneof case, plus edge variants (empty oneof, empty and 1 MiB bytes, special floats).
    /// `ConformanceTests.everyMessageAndFieldHasAFixture` checks this against proto/.
    static let all: [Fixture] = [
        Fixture("BoundingBox", box()),
        Fixture("BoundingBox-small", box(-1, 1, 0, 0)),
        Fixture("Candidate", candidate()),
        Fixture("Candidate-nan", candidate("", Sample.nanFloat)),
        Fixture("Candidate-inf", candidate("∞", -Float.infinity)),
        Fixture("Symbol", symbol()),
        Fixture("Word", word()),
        Fixture("TextLine", line()),
        Fixture("Paragraph", paragraph()),
        Fixture("Block", block()),
        Fixture("Block-unknown-type", block(.unrecognized(Int32.min))),
        Fixture("Timings", timings()),
        Fixture("StepCost", stepCost()),
        Fixture("PageResult", pageResult()),
        Fixture("PageResult-nan-skew", pageResult(skew: Sample.nanDouble)),
        Fixture("PageResult-subnormal-skew", pageResult(skew: -Double.leastNonzeroMagnitude)),
        Fixture("PageLayout", layout()),
        Fixture("PageLayout-empty", PageLayout()),
        Fixture("LayoutElement-heading", LayoutElement.with { $0.kind = .heading(layoutHeading()) }),
        Fixture("LayoutElement-paragraph", LayoutElement.with { $0.kind = .paragraph(layoutText()) }),
        Fixture("LayoutElement-list", LayoutElement.with { $0.kind = .list(layoutList()) }),
        Fixture("LayoutElement-table", LayoutElement.with { $0.kind = .table(layoutTable()) }),
        Fixture("LayoutElement-caption", LayoutElement.with { $0.kind = .caption(layoutText("Figure 3. " + Sample.emoji)) }),
        Fixture("LayoutElement-footnote", LayoutElement.with { $0.kind = .footnote(layoutText("* " + Sample.cjk)) }),
        Fixture("LayoutElement-empty-case", LayoutElement.with { $0.kind = .paragraph(LayoutText()) }),
        Fixture("LayoutText", layoutText()),
        Fixture("LayoutHeading", layoutHeading()),
        Fixture("LayoutHeading-nan", layoutHeading(Sample.nanDouble)),
        Fixture("LayoutList", layoutList()),
        Fixture("LayoutListItem", layoutList().items[0]),
        Fixture("LayoutTable", layoutTable()),
        Fixture("LayoutTableRow", layoutTable().rows[0]),
        Fixture("LayoutTableCell", layoutCell()),
        Fixture("LayoutLine", LayoutLine.with { $0.text = Sample.text; $0.box = box() }),
        Fixture("LayoutData", layoutData(.emailAddress)),
        Fixture("PdfImage", pdfImage()),
        Fixture("PdfImage-unknown-encoding", PdfImage.with { $0.encoding = .unrecognized(9); $0.dpiX = Sample.nanFloat }),
        Fixture("Status", status()),
        Fixture("Status-unknown-code", status(.unrecognized(Int32.max))),
        Fixture("RpcHeader", rpcHeader()),
        Fixture("NormalizedRect", normalizedRect()),
        Fixture("NormalizedRect-extremes", Ocr_V1_NormalizedRect.with {
            $0.x = Double.leastNonzeroMagnitude; $0.y = Double.greatestFiniteMagnitude; $0.width = 0.1; $0.height = -1e-300
        }),
        Fixture("PageRange", PageRange.with { $0.first = UInt32.max; $0.last = 1 }),
        Fixture("RecognitionOptions", options()),
        Fixture("RecognitionOptions-correction-on", options(correction: true)),
        Fixture("InputFile", inputFile()),
        Fixture("InputFile-empty-content", inputFile([], .unrecognized(-1))),
        Fixture("InputFile-all-bytes", inputFile(Sample.allBytes, .png)),
        Fixture("Job", job()),
        Fixture("PageCompleted", PageCompleted.with { $0.result = pageResult() }),
        Fixture("PageFailed", pageFailed()),
        Fixture("JobProgress", jobProgress()),
        Fixture("JobProgress-inf", jobProgress(-.infinity)),
        Fixture("JobFinished", jobFinished()),
        Fixture("JobEvent-page-completed", jobEvent(.pageCompleted(PageCompleted.with { $0.result = pageResult() }))),
        Fixture("JobEvent-page-failed", jobEvent(.pageFailed(pageFailed()))),
        Fixture("JobEvent-progress", jobEvent(.progress(jobProgress()))),
        Fixture("JobEvent-finished", jobEvent(.finished(jobFinished()))),
        Fixture("JobEvent-empty-case", jobEvent(.progress(JobProgress()))),  // set but empty: still present
        Fixture("JobEvent-no-event", jobEvent(nil)),
        Fixture("SubmitJobRequest", SubmitJobRequest.with {
            $0.files = [inputFile(Sample.allBytes), inputFile([], .jpeg), InputFile()]
            $0.options = options()
            $0.jobKey = Sample.text
            $0.priority = Int32.min
            $0.timeoutMs = UInt64.max
            $0.maxAttempts = UInt32.max
            $0.labels = Sample.map
            $0.callbackUrl = Sample.text
        }),
        Fixture("SubmitJobResponse", SubmitJobResponse.with { $0.jobId = Sample.cjk; $0.pageCount = UInt32.max; $0.existing = true }),
        Fixture("WatchJobRequest", WatchJobRequest.with { $0.jobId = "j"; $0.fromPage = UInt32.max }),
        Fixture("GetJobRequest", GetJobRequest.with { $0.jobId = Sample.emoji; $0.includePageStates = true }),
        Fixture("CancelJobRequest", CancelJobRequest.with { $0.jobId = Sample.text }),
        Fixture("DeleteJobRequest", DeleteJobRequest.with { $0.jobId = Sample.emoji }),
        Fixture("DeleteJobResponse", DeleteJobResponse()),
        Fixture("ListJobsRequest", ListJobsRequest.with {
            $0.limit = UInt32.max; $0.states = [.queued, .unrecognized(Int32.min), .unrecognized(Int32.max), .unspecified]
            $0.pageToken = Sample.text
        }),
        Fixture("ListJobsResponse", ListJobsResponse.with { $0.jobs = [job(), Job(), job()]; $0.nextPageToken = "MTcwMDAwMDAwMDAwMC5qb2ItYQ" }),
        Fixture("ClusterStatusRequest", ClusterStatusRequest()),
        Fixture("WorkerInfo", workerInfo()),
        Fixture("ClusterStatusResponse", ClusterStatusResponse.with {
            $0.workers = [workerInfo(), WorkerInfo()]
            $0.totalSlots = UInt32.max
            $0.busySlots = 1
            $0.queueDepth = 0x8000_0000
            $0.activeJobs = 2
            $0.pagesPerSecond = Sample.nanDouble
            $0.pagesDone = UInt64.max
            $0.uptimeMs = 1 << 35
        }),
        Fixture("HealthCheckRequest", HealthCheckRequest.with { $0.service = "ocr.v1.Coordinator" }),
        Fixture("HealthCheckResponse", HealthCheckResponse.with { $0.status = .serviceUnknown; $0.maxMessageBytes = UInt64.max }),
        Fixture("HealthCheckResponse-unknown", HealthCheckResponse.with { $0.status = .unrecognized(4) }),
        Fixture("Ready", ready()),
        Fixture("Heartbeat", heartbeat()),
        Fixture("PageTask", pageTask()),
        Fixture("PageTask-empty-content", pageTask([])),
        Fixture("TaskResult-result", taskResult(.result(pageResult()))),
        Fixture("TaskResult-error", taskResult(.error(status(.unavailable)))),
        Fixture("TaskResult-no-outcome", taskResult(nil)),
        Fixture("CancelTask", cancelTask()),
        Fixture("Disconnect", disconnect()),
        Fixture("Welcome", welcome()),
        Fixture("WorkerMessage-ready", WorkerMessage.with { $0.command = .ready(ready()) }),
        Fixture("WorkerMessage-heartbeat", WorkerMessage.with { $0.command = .heartbeat(heartbeat()) }),
        Fixture("WorkerMessage-result", WorkerMessage.with { $0.command = .result(taskResult(.error(status()))) }),
        Fixture("WorkerMessage-disconnect", WorkerMessage.with { $0.command = .disconnect(disconnect()) }),
        Fixture("CoordinatorMessage-task", CoordinatorMessage.with { $0.command = .task(pageTask(Sample.allBytes)) }),
        Fixture("CoordinatorMessage-heartbeat", CoordinatorMessage.with { $0.command = .heartbeat(heartbeat()) }),
        Fixture("CoordinatorMessage-cancel", CoordinatorMessage.with { $0.command = .cancel(cancelTask()) }),
        Fixture("CoordinatorMessage-disconnect", CoordinatorMessage.with { $0.command = .disconnect(Disconnect()) }),
        Fixture("CoordinatorMessage-welcome", CoordinatorMessage.with { $0.command = .welcome(welcome()) }),
    ]
}
