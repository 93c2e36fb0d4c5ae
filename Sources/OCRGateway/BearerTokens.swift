import Foundation

/// The bearer tokens HTTP clients authenticate with (`--http-tokens FILE`): one per line,
/// `NAME TOKEN` or `NAME TOKEN admin`, `#` comments and blank lines ignored. A request with
/// `Authorization: Bearer TOKEN` acts as principal `http:NAME`: it sees, watches and cancels
/// the jobs submitted with the same name, and every job when the line says `admin`.
package struct BearerTokens: Sendable {
    package struct Entry: Sendable {
        package var name: String
        package var token: [UInt8]
        package var admin: Bool
    }

    package let entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    /// Reads and checks a tokens file: names unique, tokens at least 16 characters and unique.
    package init(file path: String) throws(TokenFileError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch { throw TokenFileError("\(path): cannot be read: \(error.localizedDescription)") }
        var entries: [Entry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            let place = "\(path):\(number + 1)"
            guard fields.count == 2 || (fields.count == 3 && fields[2] == "admin") else {
                throw TokenFileError("\(place): expected 'NAME TOKEN' or 'NAME TOKEN admin'")
            }
            let name = String(fields[0]), token = Array(fields[1].utf8)
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.@".contains($0) }) else {
                throw TokenFileError("\(place): the name may hold letters, digits and - _ . @ only")
            }
            guard token.count >= 16 else { throw TokenFileError("\(place): the token of \(name) is shorter than 16 characters") }
            guard !entries.contains(where: { $0.name == name }) else { throw TokenFileError("\(place): \(name) appears twice") }
            guard !entries.contains(where: { $0.token == token }) else { throw TokenFileError("\(place): the token of \(name) is also another name's") }
            entries.append(Entry(name: name, token: token, admin: fields.count == 3))
        }
        guard !entries.isEmpty else { throw TokenFileError("\(path): no tokens") }
        self.entries = entries
    }

    /// The principal of each admin name (for the coordinator's admin set).
    package var adminPrincipals: [String] { entries.filter(\.admin).map { Self.principal($0.name) } }

    /// The entry whose token `presented` is, compared in constant time per entry.
    func entry(presenting presented: String) -> Entry? {
        let bytes = Array(presented.utf8)
        var found: Entry?
        for entry in entries where Self.constantTimeEqual(entry.token, bytes) { found = entry }
        return found
    }

    package static func principal(_ name: String) -> String { "http:" + name }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}

/// A tokens file that cannot be used, with the file and line.
package struct TokenFileError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
