/// Whether a ZeroMQ endpoint to bind is reachable only from this machine: `ipc://`, `inproc://`,
/// and `tcp://` on a loopback address (127.0.0.0/8, `[::1]`, `localhost`). `tcp://*`,
/// `tcp://0.0.0.0`, an interface name or any other address are reachable from the network.
package enum EndpointExposure {
    package static func isLocal(_ endpoint: String) -> Bool {
        if endpoint.hasPrefix("ipc://") || endpoint.hasPrefix("inproc://") { return true }
        guard endpoint.hasPrefix("tcp://") else { return false }
        var host = Substring(endpoint.dropFirst("tcp://".count))
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        if host == "localhost" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
