import StubdEngine

/// One difference between the folder's answer and the real API's.
package struct DriftFinding: Sendable, Hashable, Encodable {
    package enum Kind: String, Sendable, Hashable, Comparable, Encodable {
        /// What a client's decoder depends on: a field added, removed or of another type, an
        /// array's items of another shape, the status, the content type. `stubd drift` exits 1.
        case shape
        /// The live answer breaks the OpenAPI spec given with `--spec`: the contract the stubs are
        /// checked against no longer says what the API does. `stubd drift` exits 1.
        case contract
        /// The same shape with another value (or a kept header added, removed or changed).
        case value
        /// Differs between two live answers to the same request: not drift, reported apart.
        case volatile

        private var order: Int {
            switch self {
            case .shape: 0
            case .contract: 1
            case .value: 2
            case .volatile: 3
            }
        }
        package static func < (a: Kind, b: Kind) -> Bool { a.order < b.order }
    }

    package var kind: Kind
    /// `status`, `content-type`, `header Link`, or a JSON pointer into the body (`/list/*/dt`; `` for
    /// the whole body); for a contract finding, `answer` when the whole answer is meant.
    package var place: String
    /// `added (boolean)`, `removed (was string)`, `string → number`, `200 → 404`, `"a" → "b"`.
    package var change: String

    package init(_ kind: Kind, _ place: String, _ change: String) {
        self.kind = kind
        self.place = place
        self.change = change
    }
}
