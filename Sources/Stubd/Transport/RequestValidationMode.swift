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
}
