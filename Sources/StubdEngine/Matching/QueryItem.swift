/// One `name=value` of a request's query, decoded, in the order sent. `value` is nil for a flag
/// sent without `=` (`?debug`), which is not the same as an empty value (`?debug=`).
///
/// Not Foundation's `URLQueryItem`: on Apple platforms before swift-foundation that one wraps an
/// `NSURLQueryItem` object, an allocation per item on the request path.
package struct QueryItem: Sendable, Hashable {
    package var name: String
    package var value: String?

    package init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
