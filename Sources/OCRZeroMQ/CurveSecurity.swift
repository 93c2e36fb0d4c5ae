import Foundation

/// CURVE settings for a client-side socket (a worker's or a client's DEALER): the server's
/// public key, and this peer's own key pair (generated per process when none is given, which
/// is enough when the server keeps no allow-list for this kind of peer).
public struct CurveClientSecurity: Sendable, Hashable {
    /// The coordinator's public key.
    public var serverKey: CurveKey
    /// This peer's key pair.
    public var keyPair: CurveKeyPair

    /// CURVE towards `serverKey` with `keyPair`.
    public init(serverKey: CurveKey, keyPair: CurveKeyPair) {
        self.serverKey = serverKey
        self.keyPair = keyPair
    }

    /// From command-line values: the server's public key (file or Z85 text) and optionally our
    /// secret key file; a fresh key pair when none is given. nil when no server key is given.
    public static func from(serverKey: String?, secretKey: String?) throws -> CurveClientSecurity? {
        guard let serverKey else {
            if secretKey != nil {
                throw TransportError(code: .invalidArgument, message: "a CURVE secret key needs the server's package key too")
            }
            return nil
        }
        let pair = try secretKey.map(CurveKeyFile.keyPair(secretKey:)) ?? CurveKeyPair.generate()
        return CurveClientSecurity(serverKey: try CurveKeyFile.key(serverKey), keyPair: pair)
    }

    /// Sets the CURVE client options on `socket` (before it connects).
    package func apply(to socket: ZMQSocket) throws(TransportError) {
        try socket.set(.curveClient(serverKey: serverKey, keyPair: keyPair))
    }
}

/// CURVE settings for the coordinator: its key pair and, per endpoint, the public keys allowed
/// in (nil: any client that knows the server's public key).
package struct CurveServerSecurity: Sendable, Hashable {
    package var keyPair: CurveKeyPair
    package var allowedClients: CurveAllowList?
    package var allowedWorkers: CurveAllowList?

    /// ZAP domains that tell the two ROUTER sockets apart in the authenticator (set with or
    /// without CURVE: the coordinator's authenticator also counts connections).
    package static let clientDomain = "ocr.clients"
    package static let workerDomain = "ocr.workers"

    package init(keyPair: CurveKeyPair, allowedClients: CurveAllowList? = nil, allowedWorkers: CurveAllowList? = nil) {
        self.keyPair = keyPair
        self.allowedClients = allowedClients
        self.allowedWorkers = allowedWorkers
    }

    /// The ZAP decision: CURVE only, and the key must be on the list of the socket's domain.
    package func authorize(_ request: ZAPRequest) -> Bool {
        guard request.mechanism == "CURVE", request.clientKey != nil else { return false }
        switch request.domain {
        case Self.clientDomain: return allowedClients?.allows(request) ?? true
        case Self.workerDomain: return allowedWorkers?.allows(request) ?? true
        default: return false
        }
    }

    /// Sets the CURVE server options on one of the coordinator's ROUTERs (before it binds).
    package func apply(to socket: ZMQSocket) throws(TransportError) {
        try socket.set(.curveServer(secretKey: keyPair.secretKey))
    }
}

/// Key files: a key is its 40-character Z85 text on one line. A secret key file holds the secret
/// key; the public key is derived from it. An allow-list file holds one public key per line
/// (blank lines and `#` comments ignored).
public enum CurveKeyFile {
    /// Where a key given as `value` comes from. A value that names an existing file is that file,
    /// whatever its length (a 40-character path is a path, never read as a key); otherwise it must
    /// be the 40-character Z85 text itself. Anything else is refused.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// The key file at this path.
        case file(String)
        /// The Z85 text given in place of a file.
        case text

        /// "file PATH" or "Z85 text", for the startup log.
        public var description: String {
            switch self {
            case .file(let path): "file \(path)"
            case .text: "Z85 text"
            }
        }
    }

    /// The source `value` names (see ``Source``).
    public static func source(of value: String) throws -> Source {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw TransportError(code: .invalidArgument, message: "key file \(value) is a directory")
            }
            return .file(value)
        }
        guard CurveKey(z85: value) != nil else {
            throw TransportError(code: .invalidArgument,
                                 message: "\(value) is neither an existing key file nor a 40-character Z85 key")
        }
        return .text
    }

    /// Reads a key from `value`: a path to a key file, or the Z85 text itself (see ``Source``).
    public static func key(_ value: String) throws -> CurveKey {
        switch try source(of: value) {
        case .text:
            return CurveKey(z85: value)!
        case .file(let path):
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw TransportError(code: .invalidArgument, message: "cannot read key file \(path): \(error.localizedDescription)")
            }
            let lines = significantLines(text)
            guard lines.count == 1, let key = CurveKey(z85: lines[0]) else {
                throw TransportError(code: .invalidArgument, message: "\(path) does not hold one 40-character Z85 key")
            }
            return key
        }
    }

    /// The key pair whose secret key is in `source` (file or text).
    public static func keyPair(secretKey source: String) throws -> CurveKeyPair {
        try CurveKeyPair(secretKey: try key(source))
    }

    /// Reads an allow-list of public keys.
    package static func allowList(_ path: String) throws -> CurveAllowList {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw TransportError(code: .invalidArgument, message: "cannot read key list \(path): \(error.localizedDescription)")
        }
        var keys: [CurveKey] = []
        for (number, line) in significantLines(text).enumerated() {
            guard let key = CurveKey(z85: line) else {
                throw TransportError(code: .invalidArgument, message: "\(path): entry \(number + 1) is not a 40-character Z85 key")
            }
            keys.append(key)
        }
        return CurveAllowList(keys)
    }

    /// Writes a new key pair: `path` (secret key, mode 0600) and `path.pub` (public key).
    public static func generate(at path: String) throws -> CurveKeyPair {
        let pair = try CurveKeyPair.generate()
        guard FileManager.default.createFile(atPath: path, contents: Data((pair.secretKey.z85 + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TransportError(code: .invalidArgument, message: "cannot write \(path)")
        }
        try Data((pair.publicKey.z85 + "\n").utf8).write(to: URL(fileURLWithPath: path + ".pub"))
        return pair
    }

    private static func significantLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
