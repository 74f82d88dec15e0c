public import ArgumentParser
public import Stubd

/// `--validate requests=report|strict|off`: the `requests=` names what is validated, so a later
/// `responses=` can sit beside it. `--help` lists the three with what each does, and a typo is
/// refused naming them.
extension RequestValidationMode: ExpressibleByArgument {
    static let prefix = "requests="

    public init?(argument: String) {
        guard argument.hasPrefix(Self.prefix) else { return nil }
        self.init(rawValue: String(argument.dropFirst(Self.prefix.count)))
    }

    public var argument: String { Self.prefix + rawValue }
    public var defaultValueDescription: String { argument }
    public static var allValueStrings: [String] { allCases.map(\.argument) }

    public static var allValueDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.argument, $0.help) })
    }

    /// What `--help` says the mode does.
    var help: String {
        switch self {
        case .report: "the default: serve the stub, and say what was wrong in the journal, the log line and an X-Stubd-Contract header"
        case .strict: "answer 422 instead (401 for a missing credential, 415 for a body of a type the operation does not take; problem+json listing each error)"
        case .off: "check no request"
        }
    }
}
