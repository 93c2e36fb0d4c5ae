import Foundation
import OCRLog
import OCRPages
import OCRWebhook
import OCRZeroMQ
import OCRWire

/// How a coordinator is started: endpoints, scheduler tunables, limits, and how input files
/// are split into pages (OCRPages' ``PageSplitter`` unless a test injects another).
package struct CoordinatorConfiguration: Sendable {
    /// ROUTER for clients (`--client-endpoint`). `tcp://127.0.0.1:*` picks a free port.
    package var clientEndpoint = "tcp://*:5555"
    /// ROUTER for workers (`--worker-endpoint`).
    package var workerEndpoint = "tcp://*:5556"
    /// The ZeroMQ context to bind in: an in-process cluster shares one between its coordinator,
    /// workers and clients (over `inproc://`), and terminates it itself. nil: a context of the
    /// coordinator's own, terminated by `stop()`.
    package var context: ZMQContext?
    package var scheduler = SchedulerSettings()
    /// Largest ZeroMQ message accepted on either socket (`ZMQ_MAXMSGSIZE`).
    package var maxMessageBytes = 512 << 20
    /// A WatchJob stream that has sent nothing for this long gets a progress snapshot, so
    /// clients can tell a slow page from a lost coordinator.
    package var watchKeepalive: Duration = .seconds(5)
    /// Splits one submitted file into pages (first page index within the job given). Throws
    /// `OCRError` naming the file for corrupt or unsupported input. Called off the I/O thread.
    package var splitter: @Sendable (InputFile) throws -> [PageDescriptor]
    package var logger: Logger
    /// SQLite write-ahead journal (`--journal PATH`): jobs, pages and results survive a crash
    /// and are restored on start. nil: in memory only.
    package var journalPath: String?
    /// A shared PostgreSQL journal (`--journal postgresql://...`) this coordinator leads, won
    /// by `PostgreSQLLeaderElection.lead` before the server starts; it takes the place of
    /// `journalPath`.
    package var leadership: PostgreSQLLeadership?
    /// Called once (on the journal's thread) when the shared journal says another coordinator
    /// leads: nothing more is written or sent, and the owner should stop this server.
    package var deposed: @Sendable (String) -> Void = { _ in }
    /// How hard each journal commit waits for the disk (`--journal-sync`).
    package var journalSync: JournalSync = .normal
    /// Bytes the journal, its write-ahead log and the spool may take (`--journal-max-mb`): at
    /// the budget new jobs are RESOURCE_EXHAUSTED (running ones finish) and the oldest finished
    /// jobs are evicted to make room. nil: no budget (a full disk is still handled).
    package var journalBudgetBytes: UInt64? = 8 << 30
    /// Submissions split at the same time (each on a thread of the split pool; PDFs run
    /// subprocesses). Default: the number of cores.
    package var maxConcurrentSplits = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Bytes of submissions (requests as received) being decoded and split or waiting to be;
    /// beyond, SubmitJob is RESOURCE_EXHAUSTED
    /// (one submission larger than this alone is still taken). Default 1 GiB.
    package var maxSplittingBytes = 1 << 30
    /// CURVE encryption and key allow-lists on both endpoints (DESIGN section 6); nil: plain TCP.
    package var security: CurveServerSecurity?
    /// Client keys (Z85) that see, watch and cancel every job (`--admin-client-keys`); any
    /// other client only its own (`JobAccess`).
    package var adminClients: Set<String> = []
    /// Connections each endpoint accepts at once (`--max-connections`); a handshake beyond is
    /// refused (ZAP 500) with a log line. Keep it under half the open-file limit.
    package var maxConnections = 10_000
    /// WatchJob streams one principal may have open at once (`--max-streams-per-client`).
    package var maxStreamsPerPrincipal = 64
    /// Bytes a call may have waiting for a client that does not read, beyond the 1,000 messages
    /// ZeroMQ queues per client; past it the call is cut off with RESOURCE_EXHAUSTED.
    package var maxClientBacklogBytes = 16 << 20
    /// Where jobs' `callback_url`s may point and how webhooks are signed and retried
    /// (`--webhook-allow`, `--webhook-secret`); nil: a job naming a callback is refused.
    package var webhooks: (allowList: WebhookAllowList, sender: WebhookSender.Settings)?

    package init(splitter: @escaping @Sendable (InputFile) throws -> [PageDescriptor], logger: Logger) {
        self.splitter = splitter
        self.logger = logger
    }

    /// Splits with OCRPages' ``PageSplitter`` (TIFF directory chains walked, PDF page trees
    /// counted; nothing decoded or copied: pages are cut when they are dispatched).
    package init(logger: Logger) {
        let pages = PageSplitter()
        self.init(splitter: { file in try pages.pages(file: file.name, content: file.content, format: file.format) }, logger: logger)
    }
}
