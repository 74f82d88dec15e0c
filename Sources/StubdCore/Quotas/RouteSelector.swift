/// Which requests a quota counts: `"GET /api/{key}/**"` or a route name.
package struct RouteSelector: Sendable, CustomStringConvertible {
    package let text: String
    package let method: MethodMatch
    /// Nil when the selector is a route name.
    package let pattern: PathPattern?
    package let routeName: String?

    package var description: String { text }
}
