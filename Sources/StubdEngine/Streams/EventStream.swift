package import Foundation
import StubdProtocol

/// A stub's answer that is a stream of server-sent events (`events:` in the manifest, or an `.sse`
/// file): built at load time, read by every request that opens it. Each request keeps its own place in it.
package final class EventStream: Sendable {
    package let events: [StreamEvent]
    package let ending: StreamEnding
    /// Each event as it goes on the wire, made once.
    package let frames: [Data]
    /// `template: true`: the fields rendered per request, each event with its number and due time.
    package let templates: EventTemplates?

    package init(events: [StreamEvent], ending: StreamEnding = .complete, templates: EventTemplates? = nil) {
        self.templates = templates
        self.events = events
        self.ending = ending
        frames = events.map { Data($0.wireText.utf8) }
    }

    /// Where a client reconnecting with `Last-Event-ID: lastID` starts: after the last event with that
    /// id, or at the start when no event has it (a server that lost track of an id replays from the start).
    package func firstIndex(resumingAfter lastID: String?) -> Int {
        guard let lastID, let found = events.lastIndex(where: { $0.id == lastID }) else { return 0 }
        return found + 1
    }

    /// How many events are sent from `start` before the ending (a drop or a stall) cuts in. The ending
    /// counts events sent on this connection, so a client that resumes meets the same fault again.
    package func sendable(from start: Int) -> Int {
        let left = events.count - start
        return ending.sentEvents.map { min($0, left) } ?? left
    }
}
