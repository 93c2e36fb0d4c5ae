// The option groups of ocr-coordinator that build a configuration of their own: HTTP, webhooks,
// retention. Parsing only; main.swift wires them.
import Foundation
import OCRBasics
import OCRCommandLine
import OCRGateway
import OCRHTTP
import OCRLog
import OCRWebhook

/// The name usage errors are reported under.
let coordinatorName = "ocr-coordinator"

/// The HTTP endpoint's configuration from the `--http-*` options; nil for `--http-endpoint none`.
func httpConfiguration(_ arguments: ParsedArguments, logger: Logger, maxMessageBytes: Int,
                       insecure: inout [String]) throws(UsageError) -> GatewayConfiguration? {
    let endpoint = arguments.string("--http-endpoint")!
    guard endpoint != "none" else {
        for option in ["--http-tokens", "--http-cert", "--http-key", "--http-probe-endpoint"] where arguments.string(option) != nil {
            throw UsageError("\(option) needs an --http-endpoint", command: coordinatorName)
        }
        return nil
    }
    guard let address = HTTPListenAddress(parsing: endpoint) else {
        throw UsageError("--http-endpoint expects HOST:PORT (127.0.0.1:8080, [::1]:8080, *:8080) or none, not '\(endpoint)'", command: coordinatorName)
    }
    let limitMB = try arguments.int("--max-http-body-mb", range: 1...4096)
    // A submission goes to the scheduler as one message: a body must fit in one with room to spare.
    let largest = max(1 << 20, maxMessageBytes - (1 << 20))
    if let limitMB, limitMB << 20 > largest {
        throw UsageError("--max-http-body-mb \(limitMB) is more than --max-message-mb allows (\(largest >> 20) MB)", command: coordinatorName)
    }
    var server = HTTPServerConfiguration(address: address, maxBodyBytes: limitMB.map { $0 << 20 } ?? largest)
    switch (arguments.string("--http-cert"), arguments.string("--http-key")) {
    case (let cert?, let key?):
        do {
            server.tls = (try String(contentsOfFile: cert, encoding: .utf8), try String(contentsOfFile: key, encoding: .utf8))
        } catch {
            throw UsageError("--http-cert/--http-key: \(error.localizedDescription)", command: coordinatorName)
        }
    case (nil, nil): break
    default: throw UsageError("--http-cert and --http-key go together", command: coordinatorName)
    }
    var tokens: BearerTokens?
    if let file = arguments.string("--http-tokens") {
        do { tokens = try BearerTokens(file: file) } catch { throw UsageError("--http-tokens: \(error)", command: coordinatorName) }
    }
    if tokens == nil, !address.isLoopback {
        guard arguments.flag("--allow-insecure-bind") else {
            throw UsageError("--http-endpoint \(address) is reachable from other machines and there are no --http-tokens: give them, "
                             + "bind 127.0.0.1, or pass --allow-insecure-bind", command: coordinatorName)
        }
        insecure.append("http://\(address)")
    }
    var gateway = GatewayConfiguration(server: server, tokens: tokens, version: ProductVersion.current, logger: logger)
    if let probes = arguments.string("--http-probe-endpoint") {
        guard let probeAddress = HTTPListenAddress(parsing: probes) else {
            throw UsageError("--http-probe-endpoint expects HOST:PORT (127.0.0.1:8081, *:8081), not '\(probes)'", command: coordinatorName)
        }
        gateway.probeAddress = probeAddress
    }
    return gateway
}

/// Webhooks from `--webhook-allow` and `--webhook-secret`; nil without them.
func webhookConfiguration(_ arguments: ParsedArguments) throws(UsageError) -> (allowList: WebhookAllowList, sender: WebhookSender.Settings)? {
    let prefixes = arguments.strings("--webhook-allow")
    guard !prefixes.isEmpty else {
        if arguments.string("--webhook-secret") != nil { throw UsageError("--webhook-secret needs --webhook-allow", command: coordinatorName) }
        return nil
    }
    guard let file = arguments.string("--webhook-secret") else {
        throw UsageError("--webhook-allow needs --webhook-secret FILE (the key that signs webhook bodies)", command: coordinatorName)
    }
    let secret: [UInt8]
    do {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        secret = Array((text.split(separator: "\n").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).utf8)
    } catch {
        throw UsageError("--webhook-secret \(file): \(error.localizedDescription)", command: coordinatorName)
    }
    guard secret.count >= 16 else { throw UsageError("--webhook-secret \(file): the key must be at least 16 bytes", command: coordinatorName) }
    do {
        return (try WebhookAllowList(prefixes), WebhookSender.Settings(secret: secret))
    } catch {
        throw UsageError("\(error)", command: coordinatorName)
    }
}

/// `--retention`: `0`, or a number with a unit s, m, h or d; nil for 0 (no age limit).
func retention(_ text: String) throws(UsageError) -> Duration? {
    if text == "0" { return nil }
    let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    guard let unit = text.last, let factor = units[unit], let count = Int64(text.dropLast()), count > 0, count < 100_000_000 else {
        throw UsageError("--retention expects an age like 90m, 12h or 7d (or 0), not '\(text)'", command: coordinatorName)
    }
    return .seconds(count * factor)
}
