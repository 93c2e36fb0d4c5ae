import CSodium
import OCRBasics

/// HMAC-SHA256 (libsodium's `crypto_auth_hmacsha256`), how webhook bodies are signed.
package enum HMACSHA256 {
    private static let ready: Void = { _ = sodium_init() }()

    /// The MAC of `message` under `key`, as 64 lowercase hex digits.
    package static func hex(key: [UInt8], message: [UInt8]) -> String {
        _ = ready
        var state = crypto_auth_hmacsha256_state()
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)  // an empty key is a valid (if useless) HMAC key
        _ = message.withUnsafeBufferPointer { crypto_auth_hmacsha256_update(&state, $0.baseAddress, UInt64($0.count)) }
        _ = crypto_auth_hmacsha256_final(&state, &mac)
        return mac.hexDigits
    }
}
