/// A cumulative histogram as Prometheus keeps them: fixed upper bounds, counts, sum.
struct Histogram: Sendable {
    let bounds: [Double]
    private(set) var counts: [UInt64]
    private(set) var sum = 0.0
    private(set) var count: UInt64 = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = [UInt64](repeating: 0, count: bounds.count)
    }

    mutating func observe(_ value: Double) {
        for (i, bound) in bounds.enumerated() where value <= bound { counts[i] += 1 }
        sum += value
        count += 1
    }

    /// Page latencies: 50 ms to 5 minutes.
    static let pageSeconds = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 21, 34, 60, 120, 300]
    /// Journal commits: 100 us to 5 s.
    static let commitSeconds = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
}

/// Text exposition format 0.0.4 (what `promtool check metrics` checks): `# HELP`, `# TYPE`,
/// then the samples of each family, label values escaped.
struct PrometheusText {
    private(set) var text = ""

    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    /// One family with one sample.
    mutating func single(_ name: String, _ type: String, _ help: String, _ value: Double) {
        family(name, type, help)
        sample(name, [], value)
    }

    mutating func histogram(_ name: String, _ help: String, _ histogram: Histogram) {
        family(name, "histogram", help)
        for (bound, count) in zip(histogram.bounds, histogram.counts) {
            sample(name + "_bucket", [("le", Self.format(bound))], Double(count))
        }
        sample(name + "_bucket", [("le", "+Inf")], Double(histogram.count))
        sample(name + "_sum", [], histogram.sum)
        sample(name + "_count", [], Double(histogram.count))
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
