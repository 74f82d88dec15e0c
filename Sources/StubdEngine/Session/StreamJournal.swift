package import Foundation
package import StubdProtocol
import Synchronization

/// What a session's streams carried, for the journal: each WebSocket message (both ways) and each
/// server-sent event, tagged with the connection whose journal entry lists it (`JournalEntry.connection`).
/// One ring for the whole session, as many messages as the journal keeps requests, each cut to
/// `maxKeptBytes`: a chatty socket drops its own oldest messages, and the session's memory stays
/// bounded however many sockets it opens (1000 × 2 KiB at most).
package final class StreamJournal: Sendable {
    /// Who sent a message.
    package enum Direction: String, Sendable {
        /// stubd: a scripted message, a reply, a test's push, an event.
        case sent
        /// The app, on a WebSocket.
        case received
    }

    /// One message as kept.
    package struct Message: Sendable {
        let connection: Int
        let index: Int
        let direction: Direction
        let time: Date
        let bytes: Int
        let payload: WebSocketPayload
        let truncated: Bool
    }

    private struct Ring {
        var items: [Message] = []
        var next = 0
    }

    /// Bytes of a message the journal shows; the rest is dropped and the message marked `truncated`.
    package static let maxKeptBytes = 2048
    /// Connection ids are never reused, not even across a reset: a socket open through a reset
    /// must not list its messages under a newer entry.
    private static let connections = Atomic<Int>(1)
    private let ring = Locked(Ring())
    let capacity: Int
    /// Where the kept messages are charged (`SessionStorage`).
    private let storage: SessionStorageAccount

    init(capacity: Int, storage: SessionStorageAccount = .unbounded()) {
        self.capacity = max(1, capacity)
        self.storage = storage
    }

    private static func cost(_ message: Message) -> Int {
        switch message.payload {
        case .text(let text): StreamTraffic.messageOverhead + text.utf8.count
        case .binary(let bytes): StreamTraffic.messageOverhead + bytes.count
        }
    }

    /// A new connection's id, for its journal entry and its messages.
    static func newConnection() -> Int { connections.add(1, ordering: .relaxed).oldValue }

    /// Keeps `payload`, the `index`th message of `connection`, cut to `maxKeptBytes`.
    package func record(_ payload: WebSocketPayload, _ direction: Direction, at time: Date, connection: Int, index: Int) {
        var kept = payload, bytes = 0, truncated = false
        switch payload {
        case .text(let text):
            bytes = text.utf8.count
            if bytes > StreamJournal.maxKeptBytes {
                kept = .text(String(decoding: text.utf8.prefix(StreamJournal.maxKeptBytes), as: UTF8.self))
                truncated = true
            }
        case .binary(let data):
            bytes = data.count
            if bytes > StreamJournal.maxKeptBytes {
                kept = .binary(Array(data.prefix(StreamJournal.maxKeptBytes)))
                truncated = true
            }
        }
        let message = Message(connection: connection, index: index, direction: direction, time: time, bytes: bytes,
                              payload: kept, truncated: truncated)
        let capacity = self.capacity
        let cost = Self.cost(message)
        // Charged before the lock (a charge may evict other sessions); refused, the message is not kept.
        do { try storage.charge(cost) } catch { return }
        let freed: Int = ring.withLock { r in
            if r.items.count < capacity {
                r.items.append(message)
                return 0
            }
            let replaced = Self.cost(r.items[r.next])
            r.items[r.next] = message
            r.next = (r.next + 1) % capacity
            return replaced
        }
        storage.release(freed)
    }

    /// The kept messages of each connection in `maskers`, oldest first, as the journal shows them,
    /// masked with that connection's secrets: a token sent in the handshake (`Authorization`,
    /// `?token=`) and repeated in a message is masked there too.
    package func documents(of maskers: [Int: SecretMasker]) -> [Int: [JournalReport.StreamMessage]] {
        guard !maskers.isEmpty else { return [:] }
        let items: [Message] = ring.withLock { r in Array(r.items[r.next...] + r.items[..<r.next]) }
        var out: [Int: [JournalReport.StreamMessage]] = [:]
        for m in items {
            guard let masker = maskers[m.connection] else { continue }
            var text: String?, binary: String?
            switch m.payload {
            case .text(let t): text = masker.mask(t)
            case .binary(let b): binary = Data(b).base64EncodedString()
            }
            out[m.connection, default: []].append(JournalReport.StreamMessage(
                index: m.index, direction: m.direction.rawValue, time: JournalEntry.timeFormat(m.time), bytes: m.bytes,
                text: text, binary: binary, truncated: m.truncated ? true : nil))
        }
        return out
    }

    func reset() {
        let freed = ring.withLock { r in
            defer { r = Ring() }
            return r.items.reduce(0) { $0 + Self.cost($1) }
        }
        storage.release(freed)
    }
}
