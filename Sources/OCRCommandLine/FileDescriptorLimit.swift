import Glibc

/// The soft limit on open files, raised to the hard limit at start: a server holds one descriptor
/// per connection, and the usual soft limit (1,024) would let a thousand idle connections starve
/// it (no new client or worker could connect, Health included).
package enum FileDescriptorLimit {
    /// Raises the soft limit to the hard one; returns the limit now in force.
    @discardableResult
    package static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }
}
