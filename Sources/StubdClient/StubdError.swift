public import Foundation

/// A failure talking to stubd, worded for a test log.
public enum StubdError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing answered at the URL.
    case unreachable(url: String, reason: String)
    /// The admin API said no.
    case rejected(call: String, status: Int, detail: String)
    /// `waitForHits` reached its timeout.
    case waitTimedOut(route: String, expected: Int, actual: Int, unmatched: Int, nearest: [String])
    /// `STUBD_URL` (or another setting) is not usable.
    case badConfiguration(String)
    /// A hit count asked about a name, pattern or path that names no route of the session.
    case unknownRoute(route: String, nearest: [String])
    /// The daemon behind `STUBD_URL` serves another folder than the test's `stubs:`.
    case otherFolder(daemon: String, served: String, expected: String, expectedFingerprint: String)
    /// A `StubRoute` that cannot be sent as it is (a `json:` answer that is not JSON).
    case invalidStub(route: String, problem: String)
    /// Requests (or rendered answers) that broke the spec `serve --spec` holds them to.
    case brokenContract([String])

    /// The failure as a sentence that says what to do.
    public var description: String {
        switch self {
        case let .unreachable(url, reason):
            return "stubd is not reachable at \(url): \(reason). Start it with `stubd serve`, or unset STUBD_URL to run in-process."
        case let .rejected(call, status, detail):
            return "stubd refused \(call) (\(status)): \(detail)"
        case let .waitTimedOut(route, expected, actual, unmatched, nearest):
            return StubdError.hitMessage(route: route, expected: expected, actual: actual, unmatched: unmatched, nearest: nearest)
        case .badConfiguration(let message):
            return message
        case let .otherFolder(daemon, served, expected, expectedFingerprint):
            return "The stubd at \(daemon) (STUBD_URL) serves \(served), not this test's folder \(expected)"
                + (expectedFingerprint.isEmpty ? "" : " (\(expectedFingerprint))")
                + ". Start it on the test's folder (stubd serve --stubs \(expected)), point the test's stubs: at the folder it serves, or unset STUBD_URL to run an in-process server."
        case let .invalidStub(route, problem):
            return "The runtime stub for \(route) was not added: \(problem)"
        case .brokenContract(let problems):
            return "\(problems.count) request\(problems.count == 1 ? "" : "s") did not keep to the API's spec (the real API would refuse or answer otherwise):\n"
                + problems.map { "- " + $0 }.joined(separator: "\n")
        case let .unknownRoute(route, nearest):
            return "No route '\(route)' in this session's catalog, so its hits would always be 0"
                + (nearest.isEmpty ? "; the catalog has no routes" : "; did you mean " + nearest.map { "'\($0)'" }.joined(separator: ", ") + "?")
        }
    }

    /// The same sentence, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// `Expected 1 hit on GET /a/{b}, but was 0 (2 unmatched requests; nearest: … — path segment 3 differs)`
    public static func hitMessage(route: String, expected: Int, actual: Int, unmatched: Int, nearest: [String]) -> String {
        var text = "Expected \(expected) hit\(expected == 1 ? "" : "s") on \(route), but was \(actual)"
        if unmatched > 0 {
            text += " (\(unmatched) unmatched request\(unmatched == 1 ? "" : "s")"
            if !nearest.isEmpty { text += "; nearest: " + nearest.prefix(3).joined(separator: "; ") }
            text += ")"
        }
        return text
    }
}
