package import Foundation
package import HTTPTypes

/// What the engine asks of the specs served beside its stubs (`serve --spec`): the engine knows a
/// spec only through this, so it depends on no tool. The contract's `ContractSet` answers it.
package protocol SpecAnswers: Sendable {
    /// The paths the specs' servers put before every operation's path (`/v1`), longest first: a
    /// request that nothing answers as written is tried again without one.
    var serverPrefixes: [ServerPathPrefix] { get }

    /// The bodies the spec declares for `route`'s operation at `status` in media types none of
    /// `offered` (the stub's own `Content-Type`s) is exactly, each ready to send, with the spec's name
    /// (the answer's `bodySource`). Nil when no operation of a spec owns the route.
    func declaredBodies(for route: Route, status: HTTPResponse.Status, besides offered: [String]) -> (specName: String, bodies: [(mediaType: String, body: Data)])?

    /// The statuses (`200`, `5XX`, `default`) a spec declares for the operation a request names,
    /// with the spec's name, for saying which `Prefer: code=` went unmet. Nil when none declares it.
    func declaredStatuses(method: HTTPRequest.Method, path: [Substring]) -> (specName: String, statuses: [String])?

    /// How a canned answer breaks the operation `route` answers for, as `check --spec` would say of it
    /// (`/temp: expected number, got string`). Empty when it keeps to it, or no operation owns the route.
    func answerProblems(status: HTTPResponse.Status, headerNames: Set<String>, contentType: String?, body: Data, route: Route) -> [String]
}

/// How a declared response's status key covers a status: 2 for the status itself (`502`), 1 for its
/// range (`5XX`), 0 for `default`, nil when it does not.
package enum DeclaredStatus {
    package static func covers(_ key: String, _ status: Int) -> Int? {
        if status == Int(key) { return 2 }
        let key = key.uppercased()
        if key.count == 3, key.hasSuffix("XX"), let first = key.first?.wholeNumberValue, status / 100 == first { return 1 }
        if key == "DEFAULT" { return 0 }
        return nil
    }
}
