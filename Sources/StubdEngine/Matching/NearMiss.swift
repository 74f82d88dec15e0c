/// Why a route did not answer a request, for 404 bodies, the journal and assertion messages.
package struct NearMiss: Sendable, CustomStringConvertible {
    package let route: Route
    package let reason: String
    /// Lower is nearer.
    let distance: Int

    /// Named routes by name and signature: several routes on one path differ only in their conditions.
    package var description: String { "\(route) — \(reason)" }
}
