/// Exit codes shared by the executables, documented in each `--help` and in docs/usage.md.
package enum ExitCode: Int32, Sendable {
    /// Everything worked (for `ocr-submit`: every page recognised).
    case success = 0
    /// The job finished but some pages failed (job state PARTIAL); the good pages were written.
    case somePagesFailed = 2
    /// The job failed as a whole, was cancelled or expired, or a request was refused.
    case jobFailed = 3
    /// The input was read but its content is wrong (for `ocr-submit --math`: an expression that
    /// does not parse, divides by zero or is missing).
    case dataError = 65     // EX_DATAERR
    /// The coordinator could not be reached (or did not answer in time).
    case unavailable = 69   // EX_UNAVAILABLE
    /// Bad command line.
    case usage = 64         // EX_USAGE
    /// An input file could not be read.
    case noInput = 66       // EX_NOINPUT
    /// Startup failed: a port in use, a bad configuration, an internal error.
    case software = 70      // EX_SOFTWARE
    /// Not now: for `ocr-submit result`, the job has not finished yet.
    case notYet = 75        // EX_TEMPFAIL
    /// Interrupted by Ctrl-C (SIGINT), as a shell reports it.
    case interrupted = 130
    /// The output file cannot be created (checked before any work starts).
    case cannotCreate = 73  // EX_CANTCREAT
    /// The coordinator refused this client's CURVE key (not on its allow-list).
    case noPermission = 77  // EX_NOPERM
}
