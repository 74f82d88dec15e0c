import Foundation

/// `GET /__stubd/contract`: the specs `serve --spec` holds the Stubs folder and requests to, and what
/// they say of the catalog in force. A stub that breaks its spec fails the load (as a malformed one
/// does), so the catalog in force has no problems; what is left to say is the notices. Requests that
/// broke a spec are in the journal (`JournalReport.Entry.contract`) of their session.
public struct ContractReport: Sendable, Equatable, Codable {
    /// The spec's file name, as given to `--spec`; with several, all of them (`a.yaml and b.yaml`).
    public let file: String
    /// Its `openapi` field: `3.0.3`, `3.1.0`; with several specs, each version once (`3.0.3, 3.1.0`).
    public let openapi: String
    /// `GET /weather/{city}`, as the spec lists them (every spec's, in the order given).
    public let operations: [String]
    /// What `--validate requests=` does with a request that breaks the spec: report, strict or off.
    public let requests: String
    /// Stubs that match no operation, operations no stub answers, templates (checked once rendered).
    public let notices: [String]
    /// Each spec given to `--spec`, in order, with what it says of the catalog: a request or stub is
    /// judged by the one that declares its operation. Empty from a server older than the field.
    public let specs: [Spec]

    /// One spec of several.
    public struct Spec: Sendable, Equatable, Codable {
        /// The spec's file name, as given to `--spec`.
        public let file: String
        /// Its `openapi` field.
        public let openapi: String
        /// Its operations: `GET /weather/{city}`.
        public let operations: [String]
        /// Its operations no stub answers, and its stubs whose answers are templates (checked once rendered).
        public let notices: [String]

        /// A spec entry with the fields given.
        public init(file: String, openapi: String, operations: [String], notices: [String]) {
            self.file = file; self.openapi = openapi; self.operations = operations; self.notices = notices
        }
    }

    /// A report with the fields given.
    public init(file: String, openapi: String, operations: [String], requests: String, notices: [String], specs: [Spec] = []) {
        self.file = file; self.openapi = openapi; self.operations = operations; self.requests = requests; self.notices = notices
        self.specs = specs
    }

    private enum CodingKeys: String, CodingKey { case file, openapi, operations, requests, notices, specs }

    /// Reads a report; one without `specs` (an older server's) reads as having none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = try c.decode(String.self, forKey: .file)
        openapi = try c.decode(String.self, forKey: .openapi)
        operations = try c.decode([String].self, forKey: .operations)
        requests = try c.decode(String.self, forKey: .requests)
        notices = try c.decode([String].self, forKey: .notices)
        specs = try c.decodeIfPresent([Spec].self, forKey: .specs) ?? []
    }
}
