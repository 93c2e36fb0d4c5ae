import CZeroMQ

/// A CURVE key (public or secret): 32 bytes, carried as its 40-character Z85 text, the form
/// `ocr-keygen` prints and configuration files hold.
public struct CurveKey: Sendable, Hashable, CustomStringConvertible {
    /// The 40-character Z85 encoding.
    public let z85: String

    /// Validates a Z85 key; `nil` unless it is exactly 40 valid Z85 characters.
    public init?(z85: String) {
        let text = Array(z85.utf8)
        guard text.count == 40 else { return nil }
        var decoded = [UInt8](repeating: 0, count: 32)
        // zmq_z85_decode: `decoded`, or NULL when the text is not valid Z85 (bad length or char).
        let ok = (text + [0]).withUnsafeBufferPointer { chars in
            chars.withMemoryRebound(to: CChar.self) { cchars in
                zmq_z85_decode(&decoded, cchars.baseAddress) != nil
            }
        }
        guard ok else { return nil }
        self.z85 = z85
    }

    /// The key for 32 raw bytes (as a ZAP request carries a client's public key); `nil` for any
    /// other length.
    public init?(bytes raw: [UInt8]) {
        guard raw.count == 32 else { return nil }
        var text = [CChar](repeating: 0, count: 41)
        // zmq_z85_encode: `text` (40 chars + NUL), or NULL when the size is not a multiple of 4.
        guard zmq_z85_encode(&text, raw, raw.count) != nil else { return nil }
        self.init(z85: String(decoding: text.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The bytes handed to `zmq_setsockopt` (Z85 form, 40 bytes).
    var bytes: [UInt8] { Array(z85.utf8) }

    /// Redacted, so secret keys do not end up in logs by accident.
    public var description: String { "CurveKey(\(z85.prefix(6))…)" }
}

/// A CURVE key pair.
public struct CurveKeyPair: Sendable, Hashable {
    /// The public half, given to peers.
    public let publicKey: CurveKey
    /// The secret half, kept by its owner.
    public let secretKey: CurveKey

    /// A pair from its two halves (not checked against each other).
    public init(publicKey: CurveKey, secretKey: CurveKey) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Whether this libzmq was built with CURVE (libsodium).
    public static var isSupported: Bool {
        // zmq_has: 1 if the capability is available, else 0.
        zmq_has("curve") == 1
    }

    /// A fresh random key pair.
    public static func generate() throws(TransportError) -> CurveKeyPair {
        var publicText = [CChar](repeating: 0, count: 41)
        var secretText = [CChar](repeating: 0, count: 41)
        // zmq_curve_keypair: 0 with two NUL-terminated 40-char Z85 keys, or -1 with ENOTSUP
        // (libzmq built without CURVE).
        try zmqCheck("zmq_curve_keypair") { zmq_curve_keypair(&publicText, &secretText) }
        return try pair(publicText, secretText)
    }

    /// The pair for an existing secret key (its public key derived with `zmq_curve_public`).
    public init(secretKey: CurveKey) throws(TransportError) {
        var publicText = [CChar](repeating: 0, count: 41)
        let secret = secretKey.bytes.map { CChar(bitPattern: $0) } + [0]
        // zmq_curve_public: 0 with the NUL-terminated Z85 public key, or -1 with ENOTSUP.
        try zmqCheck("zmq_curve_public") { zmq_curve_public(&publicText, secret) }
        self = try Self.pair(publicText, secret)
    }

    private static func pair(_ publicText: [CChar], _ secretText: [CChar]) throws(TransportError) -> CurveKeyPair {
        func key(_ text: [CChar]) -> CurveKey? {
            CurveKey(z85: String(decoding: text.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let publicKey = key(publicText), let secretKey = key(secretText) else {
            throw TransportError(code: .system, message: "zmq_curve_keypair returned an invalid key")
        }
        return CurveKeyPair(publicKey: publicKey, secretKey: secretKey)
    }
}
