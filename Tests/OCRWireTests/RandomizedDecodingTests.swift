import Foundation
import Synchronization
import OCRTestSupport
import Testing
@testable import OCRWire

/// Random and mutated byte strings against every decoder. Nothing may trap; every outcome is a
/// value or a `WireDecodingError`; every value re-encodes to bytes that decode to the same value
/// and re-encode to the same bytes.
///
/// Reproducible: `OCRWIRE_FUZZ_SEED` (default below) picks the inputs, `OCRWIRE_FUZZ_INPUTS`
/// how many (at least 100,000 in total across the decoders). The seed is printed.
@Suite(.blocking) struct RandomizedDecodingTests {
    static let defaultSeed: UInt64 = 0x0C12_F00D_2026_0001
    static let minimumInputs = 100_000

    @Test func randomAndMutatedBytesNeverTrap() throws {
        let env = ProcessInfo.processInfo.environment
        let seed = env["OCRWIRE_FUZZ_SEED"].flatMap { UInt64($0, radix: 16) ?? UInt64($0) } ?? Self.defaultSeed
        let total = max(Self.minimumInputs, env["OCRWIRE_FUZZ_INPUTS"].flatMap { Int($0) } ?? 0)
        let targets = FuzzTarget.all
        let perTarget = (total + targets.count - 1) / targets.count
        let results = Mutex<[FuzzTarget.Stats]>([])
        let started = ContinuousClock.now
        // One shard per message type, spread over the cores; each shard's seed depends only on
        // the base seed and the type, so a failure replays without the others.
        DispatchQueue.concurrentPerform(iterations: targets.count) { i in
            let stats = targets[i].run(seed: seed, inputs: perTarget, others: targets)
            results.withLock { $0.append(stats) }
        }
        let all = results.withLock { $0 }
        let decoded = all.reduce(0) { $0 + $1.decoded }, rejected = all.reduce(0) { $0 + $1.rejected }
        print(String(format: "fuzz: seed %016llx (OCRWIRE_FUZZ_SEED), %d inputs to %d decoders (+1 cross-fed each): %d decoded, %d rejected, in %@",
                     seed, perTarget * targets.count, targets.count, decoded, rejected, "\(ContinuousClock.now - started)"))
        #expect(all.count == targets.count)
        #expect(perTarget * targets.count >= Self.minimumInputs)
        for stats in all {
            #expect(stats.decoded + stats.rejected == 2 * perTarget)
            for failure in stats.failures.prefix(5) {
                Issue.record("\(stats.name), seed \(String(seed, radix: 16)), input #\(failure.index): \(failure.message)\n  bytes: \(failure.bytes.prefix(200).map { String($0, radix: 16) })")
            }
        }
        // Every decoder saw both outcomes: mutations are neither all harmless nor all fatal.
        for stats in all {
            #expect(stats.decoded > 0 && stats.rejected > 0, "\(stats.name): \(stats.decoded) decoded, \(stats.rejected) rejected")
        }
    }
}

/// One message type's decoder with a corpus of its valid encodings.
struct FuzzTarget: Sendable {
    struct Failure: Sendable { var index: Int; var message: String; var bytes: [UInt8] }
    struct Stats: Sendable {
        var name: String
        var decoded = 0, rejected = 0
        var failures: [Failure] = []
    }

    var name: String
    var corpus: [[UInt8]]
    /// Decodes; on success checks the round trip and returns a failure message or nil.
    var check: @Sendable ([UInt8]) -> Result<String?, WireDecodingError>

    /// One target per message type of `Fixtures.all`, corpus = its fixtures' encodings (the
    /// 1 MiB ones left out so each mutation stays cheap) plus the empty message.
    static let all: [FuzzTarget] = {
        var byType: [String: [any ProtoMessage]] = [:]
        var order: [String] = []
        for f in Fixtures.all {
            let name = "\(type(of: f.message))"
            if byType[name] == nil { order.append(name) }
            byType[name, default: []].append(f.message)
        }
        return order.map { make(byType[$0]!) }
    }()

    private static func make(_ samples: [any ProtoMessage]) -> FuzzTarget {
        func open<M: ProtoMessage>(_ first: M) -> FuzzTarget {
            let corpus = samples.map { $0.serializedBytes() }.filter { $0.count <= 64 * 1024 } + [[]]
            return FuzzTarget(name: "\(M.self)", corpus: corpus) { bytes in
                do throws(WireDecodingError) {
                    let value = try M(serializedBytes: bytes)
                    return .success(roundTripFailure(value))
                } catch {
                    return .failure(error)
                }
            }
        }
        return open(samples[0])
    }

    /// nil when `value` re-encodes and re-decodes to itself.
    static func roundTripFailure<M: ProtoMessage>(_ value: M) -> String? {
        let bytes = value.serializedBytes()
        let again: M
        do { again = try M(serializedBytes: bytes) } catch { return "re-encoding does not decode: \(error)" }
        if again.serializedBytes() != bytes { return "re-encoding is not stable" }
        // == fails for NaN floats; compare those bit for bit.
        if again != value && CanonicalLines.of(again) != CanonicalLines.of(value) { return "round trip changed the value" }
        return nil
    }

    /// Feeds `inputs` byte strings to this decoder, and each one also to another decoder.
    func run(seed: UInt64, inputs: Int, others: [FuzzTarget]) -> Stats {
        var rng = SplitMix64(seed: seed ^ fnv1a(name))
        var stats = Stats(name: name)
        for index in 0..<inputs {
            let bytes = FuzzInput.make(from: corpus, &rng)
            let other = others[Int(rng.next() % UInt64(others.count))]
            for target in [self, other] {
                switch target.check(bytes) {
                case .failure: stats.rejected += 1
                case .success(nil): stats.decoded += 1
                case .success(let message?):
                    stats.decoded += 1
                    stats.failures.append(Failure(index: index, message: "\(target.name): \(message)", bytes: bytes))
                }
            }
        }
        return stats
    }

    private func fnv1a(_ s: String) -> UInt64 {
        s.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}

/// Builds one input: pure noise, random well-formed-looking fields, or a mutated valid encoding.
enum FuzzInput {
    static func make(from corpus: [[UInt8]], _ rng: inout SplitMix64) -> [UInt8] {
        switch rng.next() % 10 {
        case 0: return noise(&rng)
        case 1: return randomFields(&rng, depth: 0)
        case 2: return splice(corpus.randomElement(using: &rng)!, corpus.randomElement(using: &rng)!, &rng)
        default:
            var bytes = corpus.randomElement(using: &rng)!
            for _ in 0..<(1 + Int(rng.next() % 3)) { mutate(&bytes, &rng) }
            return bytes
        }
    }

    static func noise(_ rng: inout SplitMix64) -> [UInt8] {
        (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    /// Keys with small field numbers and every wire type, with plausible payloads, nested.
    static func randomFields(_ rng: inout SplitMix64, depth: Int) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<Int(rng.next() % 8) {
            let field = 1 + rng.next() % 20
            let wireType = rng.next() % 8  // 6 and 7 included on purpose
            out += varint(field << 3 | wireType)
            switch wireType {
            case 0: out += varint(rng.next() >> (rng.next() % 64))
            case 1: out += (0..<8).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case 5: out += (0..<4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case 2:
                let payload = depth < 4 && rng.next() % 2 == 0
                    ? randomFields(&rng, depth: depth + 1)
                    : (0..<Int(rng.next() % 12)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 3 == 0 ? rng.next() : 0x61) }
                out += varint(UInt64(payload.count)) + payload
            case 3: out += randomFields(&rng, depth: depth + 1) + varint(field << 3 | 4)
            default: break
            }
        }
        return out
    }

    static func splice(_ a: [UInt8], _ b: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        // Concatenated encodings are a valid merge; cut points anywhere are not.
        if rng.next() % 2 == 0 { return a + b }
        let i = a.isEmpty ? 0 : Int(rng.next() % UInt64(a.count + 1))
        let j = b.isEmpty ? 0 : Int(rng.next() % UInt64(b.count + 1))
        return Array(a[..<i] + b[j...])
    }

    static func mutate(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
        let n = bytes.count
        func at() -> Int { Int(rng.next() % UInt64(n)) }
        switch n == 0 ? 3 : rng.next() % 8 {
        case 0:  // flip one bit
            let i = at(); bytes[i] ^= 1 << (rng.next() % 8)
        case 1:  // truncate
            bytes.removeLast(Int(rng.next() % UInt64(n)) + 1)
        case 2:  // delete a run
            let i = at(); bytes.removeSubrange(i..<min(n, i + 1 + Int(rng.next() % 4)))
        case 3:  // insert random bytes
            let i = n == 0 ? 0 : Int(rng.next() % UInt64(n + 1))
            bytes.insert(contentsOf: (0...Int(rng.next() % 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: i)
        case 4:  // tweak what may be a length or count byte
            let i = at()
            let choices: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, bytes[i] &+ 1, bytes[i] &- 1, bytes[i] &+ 2]
            bytes[i] = choices[Int(rng.next() % UInt64(choices.count))]
        case 5:  // a byte set to a boundary value
            bytes[at()] = [0x00, 0x80, 0xC0, 0xED, 0xF4, 0xFF][Int(rng.next() % 6)]
        case 6:  // duplicate a run
            let i = at(), j = min(n, i + 1 + Int(rng.next() % 16))
            bytes.insert(contentsOf: bytes[i..<j], at: j)
        default:  // set a random byte
            bytes[at()] = UInt8(truncatingIfNeeded: rng.next())
        }
    }
}

