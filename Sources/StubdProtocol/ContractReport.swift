import Foundation

/// `GET /__stubd/contract`: the spec `serve --spec` holds the Stubs folder and requests to, and what
/// it says of the catalog in force. A stub that breaks the spec fails the load (as a malformed one
/// does), so the catalog in force has no problems; what is left to say is the notices. Requests that
/// broke it are in the journal (`JournalReport.Entry.contract`) of their session.
public struct ContractReport: Sendable, Equatable, Codable {
    /// The spec's file name, as given to `--spec`.
    public let file: String
    /// Its `openapi` field: `3.0.3`, `3.1.0`.
    public let openapi: String
    /// `GET /weather/{city}`, as the spec lists them.
    public let operations: [String]
    /// What `--validate requests=` does with a request that breaks the spec: report, strict or off.
    public let requests: String
    /// Stubs that match no operation, operations no stub answers, templates (checked once rendered).
    public let notices: [String]

    /// A report with the fields given.
    public init(file: String, openapi: String, operations: [String], requests: String, notices: [String]) {
        self.file = file; self.openapi = openapi; self.operations = operations; self.requests = requests; self.notices = notices
    }
}
