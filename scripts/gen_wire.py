#!/usr/bin/env python3
"""Generates Sources/OCRWire/Generated/*.pb.swift from proto/ocr/v1/*.proto.

swift-protobuf cannot be fetched here, so this small generator emits code in the shape of
generated code: one Swift value type per message, fields in field-number order, and an
encode/decode pair that a reader can check against the .proto field by field. It reads the
descriptors that `protoc --descriptor_set_out --include_source_info` writes (so the .proto
comments become doc comments) with Python's protobuf package, a development-time tool only.

Supported: every proto3 scalar type, enums (open: unknown values kept), nested enums, messages
(top-level), repeated (scalars packed), map<string, string>, oneofs, proto3 `optional`, services
(method paths). Anything else fails loudly rather than generating something wrong.

Usage: scripts/gen_wire.py --proto proto --out Sources/OCRWire/Generated [--check]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2 as d

F = d.FieldDescriptorProto

# proto type -> (Swift type, ProtoWriter/ProtoReader method suffix, proto3 default literal)
SCALARS = {
    F.TYPE_DOUBLE: ("Double", "Double", "0"),
    F.TYPE_FLOAT: ("Float", "Float", "0"),
    F.TYPE_INT64: ("Int64", "Int64", "0"),
    F.TYPE_UINT64: ("UInt64", "UInt64", "0"),
    F.TYPE_INT32: ("Int32", "Int32", "0"),
    F.TYPE_FIXED64: ("UInt64", "Fixed64", "0"),
    F.TYPE_FIXED32: ("UInt32", "Fixed32", "0"),
    F.TYPE_BOOL: ("Bool", "Bool", "false"),
    F.TYPE_STRING: ("String", "String", '""'),
    F.TYPE_BYTES: ("[UInt8]", "Bytes", "[]"),
    F.TYPE_UINT32: ("UInt32", "UInt32", "0"),
    F.TYPE_SFIXED32: ("Int32", "SFixed32", "0"),
    F.TYPE_SFIXED64: ("Int64", "SFixed64", "0"),
    F.TYPE_SINT32: ("Int32", "SInt32", "0"),
    F.TYPE_SINT64: ("Int64", "SInt64", "0"),
}
TYPE_NAMES = {v: k[len("TYPE_"):].lower() for k, v in F.Type.items()}

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "super", "self",
    "Self", "throw", "throws", "true", "try", "Type", "Protocol", "some", "any",
}
# Names a generated type must not take: they would shadow the standard library or Foundation.
RESERVED_TYPE_NAMES = {"Task", "Result", "Error", "Data", "Progress", "String", "Range", "Set", "Character"}
# Top-level types get no short `package` alias when OCRClient has a public type of that name
# (a different type: OCRClient.NormalizedRect is Vision's, with a bottom-left origin).
NO_ALIAS = {"NormalizedRect"}


def type_prefix(package):
    """swift-protobuf's namespacing: package ocr.v1 -> Ocr_V1_."""
    return "".join(p[:1].upper() + p[1:] + "_" for p in package.split("."))


def camel(name, upper=False):
    parts = [p for p in name.lower().split("_") if p]
    s = parts[0] + "".join(p.capitalize() for p in parts[1:])
    if upper:
        s = s[0].upper() + s[1:]
    return s


def ident(name):
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


class Comments:
    """Leading and trailing comments by descriptor path (see descriptor.proto SourceCodeInfo)."""

    def __init__(self, file):
        self.by_path = {}
        for loc in file.source_code_info.location:
            text = (loc.leading_comments or "").strip("\n")
            trailing = (loc.trailing_comments or "").strip()
            if trailing:
                text = (text + "\n" + trailing) if text else trailing
            if text:
                self.by_path[tuple(loc.path)] = text

    def doc(self, path, indent):
        text = self.by_path.get(tuple(path))
        if not text:
            return ""
        lines = [l[1:] if l.startswith(" ") else l for l in text.split("\n")]
        while lines and not lines[-1].strip():
            lines.pop()
        return "".join(f"{indent}///{(' ' + l) if l.strip() else ''}\n" for l in lines)


class Generator:
    def __init__(self, files):
        self.files = files
        self.messages = {}  # ".ocr.v1.Name" -> DescriptorProto
        self.enums = {}  # ".ocr.v1.Name" or ".ocr.v1.Msg.Enum" -> Swift type name
        for f in files:
            pkg = "." + f.package
            prefix = type_prefix(f.package)
            for m in f.message_type:
                self.messages[f"{pkg}.{m.name}"] = m
                for nested in m.nested_type:
                    if not nested.options.map_entry:
                        sys.exit(f"gen_wire: nested message {m.name}.{nested.name} is not supported; declare it top-level")
                    self.messages[f"{pkg}.{m.name}.{nested.name}"] = nested
                for e in m.enum_type:
                    self.enums[f"{pkg}.{m.name}.{e.name}"] = f"{prefix}{m.name}.{e.name}"
            for e in f.enum_type:
                self.enums[f"{pkg}.{e.name}"] = f"{prefix}{e.name}"
        self.prefixes = {"." + f.package: type_prefix(f.package) for f in files}

    def message_type(self, type_name):
        """The Swift name of a message type given by its full proto name (".ocr.v1.Word")."""
        pkg, _, name = type_name.rpartition(".")
        return self.prefixes[pkg] + name

    # MARK: enums

    def enum(self, e, path, comments, indent, swift_name=None):
        swift_name = swift_name or e.name
        names = [v.name for v in e.value]
        prefix = os.path.commonprefix(names)
        prefix = prefix[: prefix.rfind("_") + 1] if "_" in prefix else ""
        cases = [(ident(camel(v.name[len(prefix):])), v) for v in e.value]
        if e.name in RESERVED_TYPE_NAMES:
            sys.exit(f"gen_wire: enum name {e.name} would shadow a standard type")
        i = indent
        out = comments.doc(path, i) or f"{i}/// The proto enum `{e.name}`.\n"
        out += f"{i}public enum {swift_name}: ProtoEnum, CaseIterable {{\n"
        for n, (case, v) in enumerate(cases):
            out += comments.doc(path + [2, n], i + "    ")
            out += f"{i}    case {case}  // {v.name} = {v.number}\n"
        out += f"{i}    /// A value this build does not know, kept so it survives a round trip.\n"
        out += f"{i}    case unrecognized(Int32)\n\n"
        out += f"{i}    /// The proto3 default, `{cases[0][1].name}`.\n"
        out += f"{i}    public init() {{ self = .{cases[0][0]} }}\n\n"
        out += f"{i}    /// The value numbered `rawValue`; `unrecognized` for a number this build does not know.\n"
        out += f"{i}    public init(rawValue: Int32) {{\n{i}        switch rawValue {{\n"
        for case, v in cases:
            out += f"{i}        case {v.number}: self = .{case}\n"
        out += f"{i}        default: self = .unrecognized(rawValue)\n{i}        }}\n{i}    }}\n\n"
        out += f"{i}    /// The value's number on the wire.\n"
        out += f"{i}    public var rawValue: Int32 {{\n{i}        switch self {{\n"
        for case, v in cases:
            out += f"{i}        case .{case}: {v.number}\n"
        out += f"{i}        case .unrecognized(let value): value\n{i}        }}\n{i}    }}\n\n"
        out += f"{i}    /// Every value this build knows.\n"
        out += f"{i}    public static let allCases: [{swift_name}] = [{', '.join('.' + c for c, _ in cases)}]\n"
        out += f"{i}}}\n"
        return out

    # MARK: messages

    def field_kind(self, f):
        """Returns (swift_type, write_call, read_stmt) for field f."""
        name = ident(camel(f.name))
        num = f.number
        repeated = f.label == F.LABEL_REPEATED
        if f.type == F.TYPE_GROUP:
            sys.exit(f"gen_wire: groups are not supported ({f.name})")
        if f.type == F.TYPE_MESSAGE and repeated and self.messages[f.type_name].options.map_entry:
            entry = self.messages[f.type_name]
            k, v = entry.field
            if k.type != F.TYPE_STRING or v.type != F.TYPE_STRING:
                sys.exit(f"gen_wire: only map<string, string> is supported ({f.name})")
            return ("[String: String]", "[:]", f"writer.writeStringMap({num}, {name})",
                    f"try reader.readStringMapEntry(tag, into: &{name})")
        if f.type == F.TYPE_MESSAGE:
            t = self.message_type(f.type_name)
            if repeated:
                return (f"[{t}]", "[]", f"writer.writeRepeatedMessage({num}, {name})",
                        f"try reader.readRepeatedMessage(tag, into: &{name})")
            return (f"{t}?", "nil", f"writer.writeMessage({num}, {name})",
                    f"{name} = try reader.readMessage(tag, merging: {name})")
        if f.type == F.TYPE_ENUM:
            t = self.enums[f.type_name]
            if repeated:
                return (f"[{t}]", "[]", f"writer.writeRepeatedEnum({num}, {name})",
                        f"try reader.readRepeatedEnum(tag, into: &{name})")
            if f.proto3_optional:
                return (f"{t}?", "nil", f"writer.writeEnum({num}, {name})", f"{name} = try reader.readEnum(tag) as {t}")
            return (t, f".init()", f"writer.writeEnum({num}, {name})", f"{name} = try reader.readEnum(tag)")
        swift, suffix, default = SCALARS[f.type]
        if repeated:
            return (f"[{swift}]", "[]", f"writer.writeRepeated{suffix}({num}, {name})",
                    f"try reader.readRepeated{suffix}(tag, into: &{name})")
        if f.proto3_optional:
            return (f"{swift}?", "nil", f"writer.write{suffix}({num}, {name})", f"{name} = try reader.read{suffix}(tag)")
        return (swift, default, f"writer.write{suffix}({num}, {name})", f"{name} = try reader.read{suffix}(tag)")

    def message(self, m, path, comments, pkg):
        if m.name in RESERVED_TYPE_NAMES:
            sys.exit(f"gen_wire: message name {m.name} would shadow a standard type")
        real_oneofs = [o for i, o in enumerate(m.oneof_decl)
                       if not any(f.HasField("oneof_index") and f.oneof_index == i and f.proto3_optional for f in m.field)]
        oneof_members = {}  # oneof index -> [fields]
        for f in m.field:
            if f.HasField("oneof_index") and not f.proto3_optional:
                oneof_members.setdefault(f.oneof_index, []).append(f)

        out = comments.doc(path, "") or f"/// `{pkg}.{m.name}` of `proto/`.\n"
        out += f"public struct {type_prefix(pkg)}{m.name}: ProtoMessage {{\n"
        # Nested enums first.
        for n, e in enumerate(m.enum_type):
            out += self.enum(e, path + [4, n], comments, "    ") + "\n"
        # Oneof enums.
        for idx, fields in oneof_members.items():
            o = m.oneof_decl[idx]
            tname = camel(o.name, upper=True)
            out += f"    /// The `{o.name}` oneof: at most one of these is set.\n"
            out += f"    public enum {tname}: Sendable, Equatable {{\n"
            for f in fields:
                swift = self.oneof_case_type(f)
                out += f"        case {ident(camel(f.name))}({swift})  // {TYPE_NAMES[f.type]} {f.name} = {f.number}\n"
            out += "    }\n\n"
        emitted_oneofs = set()
        encode, decode = [], []
        for n, f in enumerate(m.field):
            fpath = path + [2, n]
            if f.HasField("oneof_index") and not f.proto3_optional:
                idx = f.oneof_index
                if idx in emitted_oneofs:
                    continue
                emitted_oneofs.add(idx)
                o = m.oneof_decl[idx]
                oname = ident(camel(o.name))
                tname = camel(o.name, upper=True)
                out += comments.doc(path + [8, idx], "    ") or f"    /// The `{o.name}` oneof; nil when none of its fields is set.\n"
                out += f"    public var {oname}: {tname}? = nil\n"
                enc = f"        switch {oname} {{\n"
                for mf in oneof_members[idx]:
                    case = ident(camel(mf.name))
                    write = self.oneof_write(mf)
                    enc += f"        case .{case}(let v)?: {write}\n"
                    decode.append((mf.number, self.oneof_read(mf, oname, case)))
                enc += "        case nil: break\n        }"
                encode.append(enc)
                continue
            swift, default, write, read = self.field_kind(f)
            label = "repeated " if f.label == F.LABEL_REPEATED else ("optional " if f.proto3_optional else "")
            tn = TYPE_NAMES[f.type] if f.type not in (F.TYPE_MESSAGE, F.TYPE_ENUM) else f.type_name.split(".")[-1]
            if swift.startswith("[String: String]"):
                tn, label = "map<string, string>", ""
            out += comments.doc(fpath, "    ") or f"    /// `{f.name}` (field {f.number}).\n"
            out += f"    public var {ident(camel(f.name))}: {swift} = {default}  // {label}{tn} {f.name} = {f.number}\n"
            encode.append(f"        {write}")
            decode.append((f.number, read))
        # Accessors for oneof members, so callers can write `event.pageCompleted`.
        for idx, fields in oneof_members.items():
            oname = ident(camel(m.oneof_decl[idx].name))
            for f in fields:
                case = ident(camel(f.name))
                out += f"\n    /// `{oname}` when it holds `{f.name}`, else nil.\n"
                out += f"    public var {case}: {self.oneof_case_type(f)}? {{\n"
                out += f"        if case .{case}(let v)? = {oname} {{ return v }}\n        return nil\n    }}\n"
        out += "\n    /// Fields this build does not know, as they came (key and value bytes), written back\n"
        out += "    /// after the known ones: a field added by a newer peer survives a decode/encode round trip.\n"
        out += "    public var unknownFields: [UInt8] = []\n"
        out += "\n    /// Every field at its proto3 default.\n"
        out += "    public init() {}\n\n"
        out += "    /// Appends the fields in field-number order, then the unknown ones.\n"
        out += "    public func encode(to writer: inout ProtoWriter) {\n"
        out += "\n".join(encode) + ("\n" if encode else "")
        out += "        writer.writeUnknown(unknownFields)\n"
        out += "    }\n\n"
        out += "    /// Reads fields until the end of the message, merging into this one; keeps unknown ones.\n"
        out += "    public mutating func decodeFields(from reader: inout ProtoReader) throws(WireDecodingError) {\n"
        out += "        while let tag = try reader.nextTag() {\n"
        out += "            switch tag.number {\n"
        for num, stmt in sorted(decode):
            out += f"            case {num}: {stmt}\n"
        out += "            default: try reader.skip(tag, keepingIn: &unknownFields)\n"
        out += "            }\n        }\n    }\n}\n"
        return out

    def oneof_case_type(self, f):
        if f.type == F.TYPE_MESSAGE:
            return self.message_type(f.type_name)
        if f.type == F.TYPE_ENUM:
            return self.enums[f.type_name]
        return SCALARS[f.type][0]

    def oneof_write(self, f):
        if f.type == F.TYPE_MESSAGE:
            return f"writer.writeMessage({f.number}, v)"
        if f.type == F.TYPE_ENUM:
            return f"writer.writeEnum({f.number}, Optional(v))"
        return f"writer.write{SCALARS[f.type][1]}({f.number}, Optional(v))"

    def oneof_read(self, f, oname, case):
        if f.type == F.TYPE_MESSAGE:
            return f"{oname} = .{case}(try reader.readMessage(tag, merging: {case}))"
        if f.type == F.TYPE_ENUM:
            return f"{oname} = .{case}(try reader.readEnum(tag))"
        return f"{oname} = .{case}(try reader.read{SCALARS[f.type][1]}(tag))"

    def service(self, s, path, comments, pkg):
        out = comments.doc(path, "") or f"/// The methods of service `{pkg}.{s.name}`, by their gRPC path.\n"
        out += f"public enum {type_prefix(pkg)}{s.name}Method: String, CaseIterable, Sendable {{\n"
        for n, meth in enumerate(s.method):
            stream = " (server streaming)" if meth.server_streaming else ""
            out += comments.doc(path + [2, n], "    ")
            out += (f"    /// {meth.input_type.split('.')[-1]} -> {meth.output_type.split('.')[-1]}{stream}\n"
                    f"    case {camel(re.sub(r'(?<!^)(?=[A-Z])', '_', meth.name))} = \"/{pkg}.{s.name}/{meth.name}\"\n")
        out += "\n    /// True for methods that answer with STREAM_MESSAGEs and a STREAM_END.\n"
        out += "    public var isServerStreaming: Bool {\n        switch self {\n"
        streaming = [camel(re.sub(r'(?<!^)(?=[A-Z])', '_', m.name)) for m in s.method if m.server_streaming]
        if streaming:
            out += f"        case {', '.join('.' + x for x in streaming)}: true\n"
        out += "        default: false\n        }\n    }\n}\n"
        return out

    def file(self, f):
        comments = Comments(f)
        out = (f"// Generated by scripts/gen_wire.py from {f.name}. Do not edit: run `make generate`.\n"
               f"// Each field line ends with its .proto declaration so the two can be checked side by side.\n\n")
        prefix = type_prefix(f.package)
        parts = []
        names = []
        for n, e in enumerate(f.enum_type):
            parts.append(self.enum(e, [5, n], comments, "", swift_name=prefix + e.name))
            names.append(e.name)
        for n, m in enumerate(f.message_type):
            parts.append(self.message(m, [4, n], comments, f.package))
            names.append(m.name)
        for n, s in enumerate(f.service):
            parts.append(self.service(s, [6, n], comments, f.package))
            names.append(s.name + "Method")
        aliases = "".join(f"package typealias {n} = {prefix}{n}\n" for n in names if n not in NO_ALIAS)
        if aliases:
            parts.append("// Short names for this package's own code; other packages see the namespaced ones.\n" + aliases)
        return out + "\n".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--proto", default="proto")
    ap.add_argument("--out", default="Sources/OCRWire/Generated")
    ap.add_argument("--check", action="store_true", help="fail if the generated files are stale")
    args = ap.parse_args()
    protos = sorted(os.path.relpath(os.path.join(dp, fn), args.proto)
                    for dp, _, fns in os.walk(args.proto) for fn in fns if fn.endswith(".proto"))
    with tempfile.TemporaryDirectory() as tmp:
        desc = os.path.join(tmp, "d.pb")
        subprocess.run(["protoc", f"-I{args.proto}", "--include_source_info", f"--descriptor_set_out={desc}", *protos], check=True)
        fds = d.FileDescriptorSet.FromString(open(desc, "rb").read())
    gen = Generator(list(fds.file))
    stale = []
    for f in fds.file:
        name = os.path.basename(f.name).replace(".proto", ".pb.swift")
        text = gen.file(f)
        path = os.path.join(args.out, name)
        if args.check:
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(path)
        else:
            os.makedirs(args.out, exist_ok=True)
            with open(path, "w") as fh:
                fh.write(text)
    if stale:
        sys.exit("gen_wire: stale generated files (run `make generate`): " + ", ".join(stale))


if __name__ == "__main__":
    main()
