import StubdProtocol
import Synchronization

/// A value every request reads and that is now and then replaced as a whole (the catalog in
/// force, the transport's prepared answers for it).
///
/// A reader gets a strong reference, so a replaced value lives exactly as long as the requests
/// still using it and is then freed. One lock per worker thread (see `ThreadStripe`): readers only
/// ever take their own, so they never wait on each other; a publisher takes them all in turn.
/// (A single atomic pointer cannot be read and retained safely while another thread releases it.)
package final class PublishedValue<Value: Sendable>: Sendable {
    private let copies: ThreadStriped<Value>
    /// One publisher at a time, so every stripe ends with the same value.
    private let publishing = Locked(())

    package init(_ value: Value) {
        copies = ThreadStriped { value }
    }

    package var value: Value {
        copies.withCurrent { $0 }
    }

    /// Replaces the value for every later reader; returns the one it replaced.
    @discardableResult
    package func publish(_ value: Value) -> Value {
        publishing.withLock { _ in
            // Every copy holds the same value: any one is the previous.
            let previous = copies.withCurrent { $0 }
            copies.forEach { $0 = value }
            return previous
        }
    }
}
