import Foundation

/// Where webhooks may go (`--webhook-allow`): URL prefixes such as `https://hooks.example.com/ocr/`
/// or `http://127.0.0.1:9000/`. A callback URL is allowed when its scheme, host and port equal
/// an entry's and its path starts with the entry's path: compared as parsed components, so
/// `https://hooks.example.com.evil.net/` or `https://hooks.example.com@evil.net/` match nothing.
/// Paths are compared normalised (`normalisedPath`): encoded unreserved characters decoded, and
/// dot segments, encoded slashes and control characters refused however they are spelled.
/// Only http and https; no user info; redirects are never followed.
package struct WebhookAllowList: Sendable {
    struct Entry: Sendable {
        var scheme: String
        var host: String
        var port: Int
        var pathPrefix: String
    }

    let entries: [Entry]

    /// Parses the prefixes; throws naming the first that is not an http(s) URL with a host.
    package init(_ prefixes: [String]) throws(WebhookError) {
        entries = try prefixes.map { prefix throws(WebhookError) in
            guard let entry = Self.parse(prefix) else {
                throw WebhookError("--webhook-allow \(prefix): expected an http:// or https:// URL prefix with a host")
            }
            return entry
        }
    }

    /// Whether a job may name `url` as its callback.
    package func allows(_ url: String) -> Bool {
        guard let target = Self.parse(url) else { return false }
        return entries.contains { entry in
            entry.scheme == target.scheme && entry.host == target.host && entry.port == target.port
                && (target.pathPrefix.hasPrefix(entry.pathPrefix) || entry.pathPrefix == target.pathPrefix + "/")
        }
    }

    private static func parse(_ text: String) -> Entry? {
        // Control characters and spaces never belong in a callback, raw or percent-encoded.
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f || $0 == "\\" }),
              percentEscapesAreSafe(text), let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.fragment == nil,
              let path = normalisedPath(components.percentEncodedPath) else { return nil }
        return Entry(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80), pathPrefix: path)
    }

    /// The path as a server compares it (RFC 3986 section 6.2.2): percent-encoded unreserved
    /// characters decoded, other escapes in upper case; nil when it has an encoded slash or
    /// backslash, an encoded control character, a malformed escape, or a `.` or `..` segment
    /// after decoding (`/hooks/%2e%2e/x` is `/hooks/../x`). Dot segments are refused rather than
    /// removed: the URL is POSTed as written, and a receiver must see the path that was checked.
    static func normalisedPath(_ encoded: String) -> String? {
        guard percentEscapesAreSafe(encoded) else { return nil }
        var out = ""
        var scalars = Array(encoded.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            guard c == "%" else { out.unicodeScalars.append(c); continue }
            let value = hexByte(scalars)!
            scalars = scalars.dropFirst(2)
            let decoded = Unicode.Scalar(value)
            if ("0"..."9").contains(decoded) || ("a"..."z").contains(decoded) || ("A"..."Z").contains(decoded)
                || "-._~".unicodeScalars.contains(decoded) {
                out.unicodeScalars.append(decoded)
            } else {
                out += String(format: "%%%02X", value)
            }
        }
        if out.isEmpty { out = "/" }
        guard !out.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        return out
    }

    /// Every `%` starts two hex digits, and none encodes a slash, a backslash or a control
    /// character.
    static func percentEscapesAreSafe(_ encoded: String) -> Bool {
        var scalars = Array(encoded.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            guard c == "%" else { continue }
            guard let value = hexByte(scalars) else { return false }
            scalars = scalars.dropFirst(2)
            if value < 0x20 || value == 0x7f || value == UInt8(ascii: "/") || value == UInt8(ascii: "\\") { return false }
        }
        return true
    }

    /// The byte written by the two hex digits that start `scalars`, or nil.
    private static func hexByte(_ scalars: ArraySlice<Unicode.Scalar>) -> UInt8? {
        guard scalars.count >= 2 else { return nil }
        let digits = scalars.prefix(2).map { $0.properties.isASCIIHexDigit ? UInt8(String($0), radix: 16) : nil }
        guard let high = digits[0], let low = digits[1] else { return nil }
        return high << 4 | low
    }
}

/// A webhook setting that cannot be used.
package struct WebhookError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
