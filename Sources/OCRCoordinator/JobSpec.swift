import OCRWire

/// What a job is, as its client asked for it: the one description the submission, the
/// journal's record of its acceptance and the job store share.
package struct JobSpec: Sendable {
    package var jobID: String
    /// Idempotency key; "" for none. The same key from the same owner returns the first job.
    package var jobKey: String
    /// The submitting principal: its CURVE public key (Z85), "" for an anonymous one (`JobAccess`).
    package var owner: String
    /// Input file names in submission order.
    package var files: [String]
    package var options: RecognitionOptions?
    package var priority: Int32
    /// Attempts a page may take; 0 in a submission means the scheduler's default, which the
    /// accepted job then carries.
    package var maxAttempts: UInt32
    package var labels: [String: String]
    /// Where the job's summary is POSTed when it finishes (checked against the allow-list
    /// before); "" for nowhere.
    package var callbackURL: String
    /// A digest of the request, so a reused `jobKey` with a different request gets
    /// `ALREADY_EXISTS`. 0: not checked.
    package var requestDigest: UInt64

    package init(jobID: String, jobKey: String = "", owner: String = "", files: [String] = [], options: RecognitionOptions? = nil,
                 priority: Int32 = 0, maxAttempts: UInt32 = 0, labels: [String: String] = [:], callbackURL: String = "",
                 requestDigest: UInt64 = 0) {
        self.jobID = jobID
        self.jobKey = jobKey
        self.owner = owner
        self.files = files
        self.options = options
        self.priority = priority
        self.maxAttempts = maxAttempts
        self.labels = labels
        self.callbackURL = callbackURL
        self.requestDigest = requestDigest
    }
}
