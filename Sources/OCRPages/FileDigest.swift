import CSodium
import OCRBasics

/// The SHA-256 of a file's bytes, as 64 lowercase hex digits (libsodium): the name under which the
/// coordinator spools an upload, so that one file is stored once however many pages or jobs use it.
/// A cryptographic hash because a collision would hand one client's page to another.
package enum FileDigest {
    /// `sodium_init` once per process (thread-safe, idempotent; -1 only if the OS has no randomness
    /// source, which SHA-256 does not need).
    private static let ready: Void = { _ = sodium_init() }()

    package static func sha256(_ bytes: [UInt8]) -> String {
        _ = ready
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBufferPointer { crypto_hash_sha256(&out, $0.baseAddress, UInt64($0.count)) }
        return out.hexDigits
    }
}
