import HTTPTypes

/// What a request on a resource does. Each is a route of its own in the catalog, so hits, quotas,
/// the journal and coverage count it as they count any route (`todos.list`, `todos.create`, …).
package enum ResourceOperation: String, Sendable, CaseIterable {
    case list, create, read, replace, update, delete

    /// On the collection's path (`/todos`) or an item's (`/todos/{id}`).
    var onItem: Bool {
        switch self {
        case .list, .create: return false
        case .read, .replace, .update, .delete: return true
        }
    }

    /// Takes a body that becomes an item (create, replace, update).
    var writes: Bool { self == .create || self == .replace || self == .update }

    var method: HTTPRequest.Method {
        switch self {
        case .list, .read: return .get
        case .create: return .post
        case .replace: return .put
        case .update: return .patch
        case .delete: return .delete
        }
    }
}
