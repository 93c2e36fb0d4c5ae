import Foundation
import OCRBasics
/// A small command-line parser for the three executables (swift-argument-parser cannot be
/// fetched here). It knows GNU-style long options (`--name value`, `--name=value`), short
/// aliases (`-o FILE`), flags, repeated options, `--` and positionals. Anything else is a
/// `UsageError`, which executables turn into exit code 64 (EX_USAGE) and a hint on stderr.

/// One option or flag a command accepts.
package struct OptionSpec: Sendable {
    package let name: String          // "--slots"
    package let short: String?        // "-s"
    package let valueName: String?    // "N"; nil for a flag
    package let help: String
    package let defaultValue: String?

    package static func option(_ name: String, short: String? = nil, value: String, default defaultValue: String? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: value, help: help, defaultValue: defaultValue)
    }

    package static func flag(_ name: String, short: String? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, defaultValue: nil)
    }
}

/// What a command accepts, and the text `--help` prints.
package struct CommandSpec: Sendable {
    package let name: String
    package let summary: String
    package let usage: String
    package let options: [OptionSpec]
    package let footer: String

    package init(name: String, summary: String, usage: String, options: [OptionSpec], footer: String = "") {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + [.flag("--help", short: "-h", help: "Show this help and exit."),
                                  .flag("--version", help: "Show the version and exit.")]
        self.footer = footer
    }

    package var helpText: String {
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
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
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
package struct ParsedArguments: Sendable {
    let spec: CommandSpec
    package internal(set) var values: [String: [String]] = [:]
    package internal(set) var flags: Set<String> = []
    package internal(set) var positionals: [String] = []

    package var wantsHelp: Bool { flags.contains("--help") }

    /// Answers `--help` (the help text) or `--version` (`NAME VERSION`) on stdout and exits 0;
    /// returns when neither was given.
    package func answerHelpOrVersion() {
        if wantsHelp {
            print(spec.helpText, terminator: "")
            exit(ExitCode.success.rawValue)
        }
        if flags.contains("--version") {
            print("\(spec.name) \(ProductVersion.current)")
            exit(ExitCode.success.rawValue)
        }
    }

    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`, else its declared default.
    package func string(_ name: String) -> String? {
        values[name]?.last ?? spec.options.first(where: { $0.name == name })?.defaultValue
    }

    package func strings(_ name: String) -> [String] { values[name] ?? [] }

    package func int(_ name: String, range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let s = string(name) else { return nil }
        guard let v = Int(s) else { throw UsageError("\(name) expects a whole number, got '\(s)'", command: spec.name) }
        if let range, !range.contains(v) {
            throw UsageError("\(name) must be in \(range.lowerBound)...\(range.upperBound), got \(v)", command: spec.name)
        }
        return v
    }

    package func double(_ name: String, range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let s = string(name) else { return nil }
        guard let v = Double(s), v.isFinite else { throw UsageError("\(name) expects a number, got '\(s)'", command: spec.name) }
        if let range, !range.contains(v) {
            throw UsageError("\(name) must be in \(range.lowerBound)...\(range.upperBound), got \(v)", command: spec.name)
        }
        return v
    }

    /// A value that must be one of `choices`.
    package func choice(_ name: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let s = string(name) else { return nil }
        guard choices.contains(s) else {
            throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(s)'", command: spec.name)
        }
        return s
    }
}

/// A mistake in how a command was called. Exit code 64 (EX_USAGE).
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String
    package let command: String
    package init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }
    package var description: String { "\(command): \(message)\nTry '\(command) --help' for more information." }
}
