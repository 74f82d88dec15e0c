import CMicroHTTPD
import Foundation
import StubdCore
import StubdProtocol
import Synchronization

/// The prepared answers of the catalog in force. Replaced as a whole by a reload; the old ones go
/// as soon as no request holds them (see `PreparedResponse` for how queued ones are kept).
final class ResponseStore: Sendable {
    private let current = PublishedValue(PreparedCatalog())
    /// Prepare-and-install is one step: two reloads at once must not leave the engine on one
    /// catalog and this store on the other.
    private let installing = Locked(())

    /// The prepared form of a canned answer: the catalog's, or a one-off for an answer outside the
    /// catalog in force (a runtime stub's, or one matched just before a reload).
    func prepared(_ canned: CannedResponse) -> PreparedResponse {
        if let slot = canned.slot {
            let prepared = current.value
            if prepared.generation == slot.generation { return prepared.answers[slot.index] }
        }
        return PreparedResponse(canned)
    }

    /// Prepares every answer of `catalog` (so the first request pays nothing), then runs `install`.
    func install(_ catalog: StubCatalog, _ install: () -> Void) {
        let prepared = PreparedCatalog(catalog)
        installing.withLock { _ in
            current.publish(prepared)
            install()
        }
    }

    /// After the daemons stop: every prepared answer is released.
    func releaseAll() {
        current.publish(PreparedCatalog())
    }
}
