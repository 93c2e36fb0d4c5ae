import OCRWire

/// Flattens a message into sorted "path = value" lines, the format `scripts/wire_conformance.py`
/// writes for what upb and protoc decoded, so the two can be compared field by field and a
/// mismatch names the field (`$.blocks[0].paragraphs[0].box.x = i:-2147483648`).
///
/// It walks the generated structs with `Mirror`, so it needs no per-message code and a field
/// added to `proto/` is compared without touching the tests. Values:
/// `i:` integers in decimal, `b:` bools, `f:`/`d:` float/double bit patterns in hex (so -0.0 and
/// NaN compare exactly), `s:` strings with everything outside printable ASCII as `\u{HEX}`,
/// `y:len:hex` bytes (`y:len:fnvHASH` above 32 bytes), `e:` enum numbers. Every present message
/// writes `path = {}`; unset optionals and oneofs write nothing; maps write `path["key"]`.
enum CanonicalLines {
    static func of(_ message: any ProtoMessage) -> [String] {
        var out: [String] = []
        walk(message, "$", &out)
        return out.sorted()
    }

    private static func walk(_ value: Any, _ path: String, _ out: inout [String]) {
        if let message = value as? any ProtoMessage {
            out.append("\(path) = {}")
            for child in Mirror(reflecting: message).children {
                // `unknownFields` is not a field of the .proto: empty in every fixture, and
                // checked on its own by the unknown-field tests.
                guard let label = child.label, label != "unknownFields" else { continue }
                field(child.value, "\(path).\(label)", &out)
            }
        } else {
            out.append("\(path) = \(scalar(value))")
        }
    }

    private static func field(_ value: Any, _ path: String, _ out: inout [String]) {
        // Exact type checks: `as? [UInt8]` would also accept an empty array of any element type.
        if type(of: value) == [UInt8].self, let bytes = value as? [UInt8] {
            out.append("\(path) = \(Self.bytes(bytes))")
            return
        }
        if type(of: value) == [String: String].self, let map = value as? [String: String] {
            for (k, v) in map { out.append("\(path)[\(escape(k))] = s:\(escape(v))") }
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            // nil: absent. Some: the wrapped value, which may itself be a oneof enum.
            if let wrapped = mirror.children.first?.value { field(wrapped, path, &out) }
        case .collection:
            for (i, element) in mirror.children.enumerated() { walk(element.value, "\(path)[\(i)]", &out) }
        case .enum where !(value is any ProtoEnum):
            // A oneof: the case name is the member field's name, the payload its value.
            let parent = path[..<path.lastIndex(of: ".")!]
            if let member = mirror.children.first, let name = member.label {
                walk(member.value, "\(parent).\(name)", &out)
            }
        default:
            walk(value, path, &out)
        }
    }

    private static func scalar(_ value: Any) -> String {
        switch value {
        case let v as Bool: return "b:\(v)"
        case let v as Int32: return "i:\(v)"
        case let v as Int64: return "i:\(v)"
        case let v as UInt32: return "i:\(v)"
        case let v as UInt64: return "i:\(v)"
        case let v as Float: return "f:" + hex(UInt64(v.bitPattern), digits: 8)
        case let v as Double: return "d:" + hex(v.bitPattern, digits: 16)
        case let v as String: return "s:" + escape(v)
        case let v as any ProtoEnum: return "e:\(v.rawValue)"
        default: return "?\(type(of: value))"
        }
    }

    static func escape(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\"", scalar != "\\" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out + "\""
    }

    static func bytes(_ b: [UInt8]) -> String {
        if b.count <= 32 { return "y:\(b.count):" + b.map { hex(UInt64($0), digits: 2) }.joined() }
        var h: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a 64
        for byte in b { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return "y:\(b.count):fnv" + hex(h, digits: 16)
    }

    static func hex(_ v: UInt64, digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
