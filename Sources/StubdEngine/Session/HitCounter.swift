import Synchronization

/// A counter that can be carried from one catalog to the next when a route survives a reload.
package final class HitCounter: Sendable {
    let value = Atomic<Int>(0)
    /// The rarer things coverage counts about the route (quota refusals and recoveries).
    let outcomes = RouteOutcomes()
    package init() {}
    package var count: Int { value.load(ordering: .relaxed) }
    @discardableResult func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    func reset() {
        value.store(0, ordering: .relaxed)
        outcomes.reset()
    }
}
