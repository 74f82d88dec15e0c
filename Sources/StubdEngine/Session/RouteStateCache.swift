/// One worker's route states for the catalog in force (`generation`), by route index.
package struct RouteStateCache {
    var generation: UInt64 = 0
    var states: [Int: RouteState] = [:]
}
