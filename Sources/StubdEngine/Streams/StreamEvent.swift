import Foundation
package import StubdProtocol

/// One server-sent event of a stub's stream: the WHATWG fields, and how long after the one before
/// it (or after the stream opened) it is sent.
package struct StreamEvent: Sendable, Hashable {
    /// `event:` the type a client's `addEventListener` listens for; nil is the default, `message`.
    package var event: String?
    /// `data:` lines joined by `\n`; written back one `data:` line each.
    package var data: String?
    /// `id:` what the client sends back as `Last-Event-ID` when it reconnects.
    package var id: String?
    /// `retry:` milliseconds the client waits before it reconnects.
    package var retry: Int?
    /// Waited before this event is sent, counted from the one before it.
    package var delay: Delay?

    package init(event: String? = nil, data: String? = nil, id: String? = nil, retry: Int? = nil, delay: Delay? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.delay = delay
    }

    /// The event on the wire, ending in the blank line that dispatches it.
    package var wireText: String {
        var text = ""
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        if let data {
            for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        }
        return text + "\n"
    }
}
