/// Where a list answer says how many items matched before paging (`total:` of a resource).
package enum ResourceTotalStyle: String, Sendable, CaseIterable {
    /// A bare JSON array, the count in `X-Total-Count` (json-server, many REST APIs).
    case header
    /// `{"items": [...], "total": N, ...}`: the count in the body, beside the page it was cut from.
    case envelope
}
