import OCRPages
import OCRWire

/// What the shell must do after an event, in order. The scheduler never does I/O itself.
package enum SchedulerDirective: Sendable {
    /// Send `CoordinatorMessage.task` to the worker.
    case sendTask(WorkerIdentity, PageTask)
    /// Cut the page out of its file (the stored descriptor: the file's bytes and the `PageCut`),
    /// then send the task with the page as its content, after the messages to that worker before
    /// it and before those after. When the page cannot be cut, the shell reports it as the
    /// worker's failed result.
    case cutAndSendTask(WorkerIdentity, PageTask, PageDescriptor)
    /// Send `CoordinatorMessage.welcome`: the answer to a worker's `Ready`.
    case sendWelcome(WorkerIdentity, Welcome)
    /// Send `CoordinatorMessage.heartbeat`.
    case sendHeartbeat(WorkerIdentity, Heartbeat)
    /// Send `CoordinatorMessage.cancel`: the page's job was cancelled or expired, or another
    /// attempt already produced its result.
    case sendCancel(WorkerIdentity, CancelTask)
    /// Send `CoordinatorMessage.disconnect` (unexpected command, unknown or expired worker).
    /// The scheduler has already forgotten the worker.
    case sendDisconnect(WorkerIdentity, reason: String)
    /// Deliver to every watcher of `event.jobId`. After a `.finished` event the shell ends
    /// those streams (STREAM_END with OK).
    case emit(JobEvent)
    /// Answer the SubmitJob whose `JobSubmission.request` is `request`.
    case submitReply(request: UInt64, Result<SubmitJobResponse, OCRError>)
    /// Answer the CancelJob whose token is `request`: the job as it is after the cancel.
    case cancelReply(request: UInt64, Result<Job, OCRError>)
    /// Answer the DeleteJob whose token is `request`.
    case deleteReply(request: UInt64, Result<DeleteJobResponse, OCRError>)
    /// Persist this change (only with `SchedulerSettings.journalChanges`).
    case journal(JobChange)
    /// Call `handle(.tick, now:)` at this time (since start); replaces any earlier request.
    /// A time already past means "as soon as possible".
    case scheduleTick(at: Duration)
}

extension SchedulerDirective {
    /// Encodes a worker-bound directive as the frame-2 message (nil for the others).
    package var coordinatorMessage: (WorkerIdentity, CoordinatorMessage)? {
        switch self {
        case .sendTask(let to, let task): (to, CoordinatorMessage.with { $0.command = .task(task) })
        case .sendWelcome(let to, let welcome): (to, CoordinatorMessage.with { $0.command = .welcome(welcome) })
        case .sendHeartbeat(let to, let hb): (to, CoordinatorMessage.with { $0.command = .heartbeat(hb) })
        case .sendCancel(let to, let cancel): (to, CoordinatorMessage.with { $0.command = .cancel(cancel) })
        case .sendDisconnect(let to, let reason):
            (to, CoordinatorMessage.with { $0.command = .disconnect(Disconnect.with { $0.reason = reason }) })
        default: nil
        }
    }
}
