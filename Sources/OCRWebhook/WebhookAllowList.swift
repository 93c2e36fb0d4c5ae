import Foundation

/// Where webhooks may go (`--webhook-allow`): URL prefixes such as `https://hooks.example.com/ocr/`
/// or `http://127.0.0.1:9000/`. A callback URL is allowed when its scheme, host and port equal
/// an entry's and its path starts with the entry's path: compared as parsed components, so
/// `https://hooks.example.com.evil.net/` or `https://hooks.example.com@evil.net/` match nothing.
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
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.fragment == nil else { return nil }
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        guard !path.split(separator: "/").contains("..") else { return nil }
        return Entry(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80), pathPrefix: path)
    }
}

/// A webhook setting that cannot be used.
package struct WebhookError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
