import Foundation
package import HTTPTypes

extension StubEngine {
    /// `X-Stubd-Prefer`: a request's `Prefer: code=…`/`example=…` that no stub answers, and what would.
    package static let preferHeader = HTTPField.Name("X-Stubd-Prefer")!

    /// Prism's `Prefer` tokens (`code=429`, `example=NAME`) in a request's header, as written; empty
    /// when there are none (RFC 7240's own preferences, `return=minimal`, are not stubd's business).
    static func stubPreferences(_ request: RequestHead) -> [String] {
        guard let value = request.header(.prefer) else { return [] }
        return value.split(whereSeparator: { $0 == "," || $0 == ";" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("code=") || $0.hasPrefix("example=") }
    }

    /// What to say when the request asked for an answer with `Prefer` and the route that answered
    /// takes no `Prefer` (so it is the answer without one): which preference went unmet and which
    /// the stubs of this operation do answer. Nil when the preference was met, or there was none.
    ///
    /// `code=502` where the spec declares only `5XX`: the spec documents a 502, but no stub answers
    /// one (an import writes a range as its `x00`, `5XX` as 500), so it is unmet, and the message says
    /// which stub stands for the range.
    func unmetPreference(_ request: RequestHead, answeredBy outcome: Outcome, in session: SessionState, _ catalog: StubCatalog) -> String? {
        // A plain stub folder without a spec reads no header here: nothing in it could answer a Prefer.
        guard hasSpecs || catalog.takesPrefer || session.runtimeStubCount > 0 else { return nil }
        let wanted = Self.stubPreferences(request)
        guard !wanted.isEmpty, let route = outcome.route, !route.conditions.headers.contains(where: { $0.name == "prefer" }) else { return nil }
        // A plain stub that happens to answer the asked status meets `code=` alone.
        if wanted.allSatisfy({ $0 == "code=\(outcome.status.code)" }) { return nil }
        let segments = request.segments
        var available: [String] = []
        for candidate in session.runtimeStubs().map(\.route) + catalog.routes
        where candidate.method.accepts(request.method) && candidate.pattern.match(segments) != nil {
            for condition in candidate.conditions.headers where condition.name == "prefer" {
                switch condition.value {
                case .equals(let value): available.append(value)
                case .oneOf(let values): available += values
                case .present: break
                }
            }
        }
        var seen: Set<String> = []
        available = available.filter { seen.insert($0).inserted }
        var message = "Prefer: \(wanted.joined(separator: ", ")) matches no stub of \(request.method) \(request.normalizedPath)"
        var declared = ""
        if let (specName, statuses) = specs?.declaredStatuses(method: request.method, path: segments) {
            declared = "; \(specName) declares \(statuses.joined(separator: ", "))"
            for token in wanted where token.hasPrefix("code=") {
                guard let code = Int(token.dropFirst(5)), let range = statuses.first(where: { DeclaredStatus.covers($0, code) == 1 }),
                      !statuses.contains(where: { DeclaredStatus.covers($0, code) == 2 }) else { continue }
                // Said first: it is what the user needs, and a header holds 300 characters.
                message += " (\(specName)'s \(range) covers \(code), but no stub answers \(code): add one"
                    + (available.contains("code=\(code / 100)00") ? ", or ask for the range's, Prefer: code=\(code / 100)00)" : ")")
            }
        }
        message += contractRequests == "strict"
            ? "; the answer without it is \(outcome.status.code), route \(route.key)"
            : "; served the answer without it (\(outcome.status.code), route \(route.key))"
        message += available.isEmpty ? "; no stub here takes a Prefer" : "; stubs here take Prefer: " + available.joined(separator: " | ")
        message += declared
        return message
    }
}
