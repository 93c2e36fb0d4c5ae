/// Whose jobs a caller may see, watch and cancel. Jobs belong to the principal that submitted
/// them: a client's CURVE public key (Z85) as the ZAP handler authorised it, or "" for clients
/// on a socket without CURVE (one anonymous principal; such sockets bind loopback by default).
package enum JobAccess: Sendable, Equatable {
    /// An admin (`--admin-client-keys`): every job.
    case everyone
    /// This principal's jobs only; another's are NOT_FOUND, as if they did not exist.
    case owner(String)

    package func allows(_ owner: String) -> Bool {
        switch self {
        case .everyone: true
        case .owner(let principal): principal == owner
        }
    }
}
