/// A small command-line parser for the three executables (swift-argument-parser cannot be
/// fetched here). It knows GNU-style long options (`--name value`, `--name=value`), short
/// aliases (`-o FILE`), flags, repeated options, `--` and positionals. Anything else is a
/// `UsageError`, which executables turn into exit code 64 (EX_USAGE) and a hint on stderr.

/// One option or flag a command accepts.
public struct OptionSpec: Sendable {
    public let name: String          // "--slots"
    public let short: String?        // "-s"
    public let valueName: String?    // "N"; nil for a flag
    public let help: String
    public let defaultValue: String?

    public static func option(_ name: String, short: String? = nil, value: String, default defaultValue: String? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: value, help: help, defaultValue: defaultValue)
    }

    public static func flag(_ name: String, short: String? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, defaultValue: nil)
    }
}

/// What a command accepts, and the text `--help` prints.
public struct CommandSpec: Sendable {
    public let name: String
    public let summary: String
    public let usage: String
    public let options: [OptionSpec]
    public let footer: String

    public init(name: String, summary: String, usage: String, options: [OptionSpec], footer: String = "") {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + [.flag("--help", short: "-h", help: "Show this help and exit.")]
        self.footer = footer
    }

    public var helpText: String {
        var text = "\(name): \(summary)\n\nUsage: \(usage)\n\nOptions:\n"
        let labels = options.map { o -> String in
            var l = o.short.map { "\($0), " } ?? "    "
            l += o.name
            if let v = o.valueName { l += " \(v)" }
            return l
        }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (o, label) in zip(options, labels) {
            var line = "  " + label
            line += label.count < width ? String(repeating: " ", count: width - label.count) : "\n" + String(repeating: " ", count: width + 2)
            line += o.help
            if let d = o.defaultValue { line += " (default: \(d))" }
            text += line + "\n"
        }
        if !footer.isEmpty { text += "\n" + footer + "\n" }
        return text
    }

    /// Parses `arguments` (without the program name).
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments(spec: self)
        var i = 0
        func lookup(_ token: String) throws(UsageError) -> OptionSpec {
            guard let o = options.first(where: { $0.name == token || $0.short == token }) else {
                throw UsageError("unknown option '\(token)'", command: name)
            }
            return o
        }
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if arg == "--" {
                result.positionals += arguments[i...]
                break
            }
            guard arg.hasPrefix("-"), arg != "-" else {
                result.positionals.append(arg)
                continue
            }
            var token = arg
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                token = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            let option = try lookup(token)
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError("\(option.name) takes no value", command: name) }
                result.flags.insert(option.name)
                continue
            }
            if let inlineValue {
                result.values[option.name, default: []].append(inlineValue)
            } else {
                guard i < arguments.count else { throw UsageError("\(option.name) needs a value (\(option.valueName!))", command: name) }
                result.values[option.name, default: []].append(arguments[i])
                i += 1
            }
        }
        return result
    }
}

/// The outcome of parsing: typed getters throw `UsageError` naming the option on bad values.
public struct ParsedArguments: Sendable {
    let spec: CommandSpec
    public internal(set) var values: [String: [String]] = [:]
    public internal(set) var flags: Set<String> = []
    public internal(set) var positionals: [String] = []

    public var wantsHelp: Bool { flags.contains("--help") }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`, else its declared default.
    public func string(_ name: String) -> String? {
        values[name]?.last ?? spec.options.first(where: { $0.name == name })?.defaultValue
    }

    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    public func int(_ name: String, range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let s = string(name) else { return nil }
        guard let v = Int(s) else { throw UsageError("\(name) expects a whole number, got '\(s)'", command: spec.name) }
        if let range, !range.contains(v) {
            throw UsageError("\(name) must be in \(range.lowerBound)...\(range.upperBound), got \(v)", command: spec.name)
        }
        return v
    }

    public func double(_ name: String, range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let s = string(name) else { return nil }
        guard let v = Double(s), v.isFinite else { throw UsageError("\(name) expects a number, got '\(s)'", command: spec.name) }
        if let range, !range.contains(v) {
            throw UsageError("\(name) must be in \(range.lowerBound)...\(range.upperBound), got \(v)", command: spec.name)
        }
        return v
    }

    /// A value that must be one of `choices`.
    public func choice(_ name: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let s = string(name) else { return nil }
        guard choices.contains(s) else {
            throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(s)'", command: spec.name)
        }
        return s
    }
}

/// A mistake in how a command was called. Exit code 64 (EX_USAGE).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let command: String
    public init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }
    public var description: String { "\(command): \(message)\nTry '\(command) --help' for more information." }
}
