/// What decides which requests a route takes: two routes with equal identities compete for the
/// same requests, and the first always wins.
package struct RouteIdentity: Hashable {
    let method: MethodMatch
    let shape: [PatternSegment]
    let optionalExtension: String?
    let priority: Int
    let conditions: RequestConditions

    package init(_ route: Route) {
        method = route.method
        shape = route.pattern.shape
        optionalExtension = route.pattern.optionalExtension
        priority = route.priority
        conditions = route.conditions
    }
}
