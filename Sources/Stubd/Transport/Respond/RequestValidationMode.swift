/// What `serve --spec` does with a request that breaks its operation in the spec
/// (`--validate requests=MODE`).
public enum RequestValidationMode: String, Sendable, CaseIterable {
    /// Serve the stub, and say what was wrong: the journal's `contract` field, the log line and an
    /// `X-Stubd-Contract` header. The default with a spec: a test sees the problem without the
    /// app getting an answer the real API would not have given either way.
    case report
    /// Answer 422 problem+json listing each problem, as Prism does, instead of the stub.
    case strict
    /// Do not hold requests to the spec (stubs still are, at load).
    case off

    /// What `serve --spec` says at start-up: what a request that does not keep to the spec gets in this mode,
    /// and how to get the other (a newcomer expected 422s from the default, report: issue 45 item 3).
    public var startupDescription: String {
        switch self {
        case .report:
            "requests=report: a request that does not keep to the spec gets the stub's answer, its problems said in an X-Stubd-Contract header, the journal and the log; --validate requests=strict answers 422 instead"
        case .strict:
            "requests=strict: a request that does not keep to the spec gets 422 (401 for a missing credential, 415 for a body type the operation does not take) instead of the stub's answer"
        case .off:
            "requests=off: requests are not held to the spec (stub answers still are, at load); --validate requests=strict answers 422 to one that does not keep to it"
        }
    }
}
