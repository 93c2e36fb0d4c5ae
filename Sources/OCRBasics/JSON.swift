/// A JSON writer: the document renderer's and the HTTP API's (parsing is Foundation's).
/// A JSON value that keeps object keys in the order given.
package indirect enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Float)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// The compact text of this value.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    package func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .float(let value): out += Self.number(Double(value), shortest: value.isFinite ? "\(value)" : "")
        case .double(let value): out += Self.number(value, shortest: value.isFinite ? "\(value)" : "")
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (i, value) in values.enumerated() {
                if i > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Finite numbers in their shortest round-trip form (`0.25`, `1e-05`); NaN and infinities
    /// as the strings protobuf's JSON mapping uses.
    private static func number(_ value: Double, shortest: String) -> String {
        if value.isNaN { return "\"NaN\"" }
        if value.isInfinite { return value > 0 ? "\"Infinity\"" : "\"-Infinity\"" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return shortest
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
