package import StubdEngine

/// Why `POST /__stubd/stubs` did not take a stub: it is not a route (400), or under `serve --spec
/// --validate requests=strict` its answers break the spec (422, as a file stub's would fail the load).
package enum RuntimeStubRefusal: Error {
    case invalid(CatalogLoadError)
    case breaksContract([LoadProblem])
}
