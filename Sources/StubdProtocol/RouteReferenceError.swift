/// A route reference (`RouteReference`) that reads as a method and a path but is neither, with
/// what to write instead.
public struct RouteReferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with it.
    public enum Problem: Sendable, Hashable {
        /// A word before a path that is no HTTP method stubd knows.
        case unknownMethod(String)
        /// A known method followed by a path without its leading '/'.
        case pathWithoutSlash(method: String, path: String)
        /// A path pattern that cannot be read (a server finds this one: it knows the pattern rules).
        case badPattern(String)
    }

    /// The reference as written.
    public let text: String
    /// What is wrong with it.
    public let problem: Problem

    /// The error for `text` with `problem`.
    public init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    /// The reference, what is wrong and what to write instead.
    public var description: String {
        switch problem {
        case .unknownMethod(let method):
            return "route reference '\(text)': unknown method '\(method)'; write one of "
                + (["ANY"] + RouteReference.methods.sorted()).joined(separator: ", ") + " before the path, or a path alone for any method"
        case let .pathWithoutSlash(method, path):
            return "route reference '\(text)': a path starts with '/': write \"\(method) /\(path)\""
        case .badPattern(let why):
            return "route reference '\(text)': bad path pattern: \(why)"
        }
    }
}
