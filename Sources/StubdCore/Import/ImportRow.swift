import StubdEngine

/// One line of an import's table: a request (a HAR entry, a WireMock mapping, a Postman example)
/// and what became of it.
package struct ImportRow: Sendable {
    package enum Kind: Sendable { case imported, alreadyThere, leftOut }

    /// Where it stands in the input: a HAR entry's number from 1 (a HAR viewer's count), a mapping's
    /// file and JSON pointer, a Postman example's folder path.
    package let source: String
    package let method: String
    /// The path, secrets replaced, and the query's names only (values may be keys).
    package let target: String
    package let status: Int
    package let kind: Kind
    /// Where it came over (`data/2.5/weather.json`, `rec-39a8b86a in stubd.recorded.yml`), or why not.
    package let result: String
    /// What came over only in part (a matcher stubd has no equal for): the stub answers, looser or
    /// otherwise than the original, and the table says how.
    package var partial: [String] = []

    package init(source: String, method: String, target: String, status: Int, kind: Kind, result: String, partial: [String] = []) {
        self.source = source
        self.method = method
        self.target = target
        self.status = status
        self.kind = kind
        self.result = result
        self.partial = partial
    }
}
