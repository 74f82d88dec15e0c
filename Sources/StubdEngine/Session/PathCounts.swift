import HTTPTypes

/// One worker's hits per concrete path and method. Requests mostly repeat the path and method of
/// the one before, so that pair's slot is remembered and the two hash lookups skipped.
package struct PathCounts {
    /// Path → method → index into `counts`.
    private var slots: [String: [HTTPRequest.Method: Int]] = [:]
    private var counts: [Int] = []
    private var last: (path: String, method: HTTPRequest.Method, slot: Int)?

    mutating func add(path: String, method: HTTPRequest.Method) {
        if let last, last.path == path, last.method == method {
            counts[last.slot] += 1
            return
        }
        let slot: Int
        if let known = slots[path]?[method] {
            slot = known
        } else {
            slot = counts.count
            counts.append(0)
            slots[path, default: [:]][method] = slot
        }
        counts[slot] += 1
        last = (path, method, slot)
    }

    /// Path → method → hits.
    var table: [String: [HTTPRequest.Method: Int]] { slots.mapValues { $0.mapValues { counts[$0] } } }
}
