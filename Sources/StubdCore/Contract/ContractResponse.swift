import StubdEngine

/// What an operation may answer under one status key (`200`, `4XX` or `default`).
package struct ContractResponse: Sendable {
    /// As the spec writes it.
    package let status: String
    package let media: [ContractMedia]
    /// Headers the spec marks `required: true`, as written.
    package let requiredHeaders: [String]
    /// The response object's place in the spec, as the user finds it (`openapi.yaml#/paths/~1weather/get/responses/200`).
    package let location: String

    /// How well this key covers `status`: 2 exact, 1 a range such as `4XX`, 0 `default`; nil for no match.
    package func covers(_ status: Int) -> Int? { DeclaredStatus.covers(self.status, status) }

    /// The media entry for `contentType`, the most exact one first.
    package func media(for contentType: String) -> ContractMedia? {
        media.compactMap { entry in entry.accepts(contentType).map { (entry, $0) } }.max { $0.1 < $1.1 }?.0
    }
}
