import StubdEngine
import StubdProtocol

/// The prepared answers of the catalog in force, read by every request and now and then replaced
/// (`RequestRouter.install`): one copy per worker thread, each behind its own lock, as the engine's
/// `PublishedValue` keeps its catalog, so readers never wait on each other and a replaced table lives
/// as long as the requests still using it.
///
/// Written out for this one type rather than a `PublishedValue<PreparedAnswers>`: that generic class
/// is the engine's, and the front read it unspecialized, through generic metadata (callgrind: ~1,500
/// instructions a request against ~200 for the engine's own, specialized read of its catalog).
final class PreparedAnswersInForce: Sendable {
    private let copies: [Locked<PreparedAnswers>]
    /// One publisher at a time, so every copy ends with the same table.
    private let publishing = Locked(())

    init(_ answers: PreparedAnswers) {
        copies = (0..<ThreadStripe.count).map { _ in Locked(answers) }
    }

    var value: PreparedAnswers {
        copies[ThreadStripe.current].withLock { $0 }
    }

    func publish(_ answers: PreparedAnswers) {
        publishing.withLock { _ in
            for copy in copies { copy.withLock { $0 = answers } }
        }
    }
}
