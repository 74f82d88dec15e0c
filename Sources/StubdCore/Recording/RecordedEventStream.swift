package import Foundation
import StubdProtocol
package import StubdEngine

/// A stream of server-sent events as the real API sent it, made into what a stub replays: an `.sse`
/// file with each event's fields and, above it, `: delay` for the time the API took since the event
/// before (or since its head). Read as a client reads a stream (WHATWG HTML, "Server-sent events"):
/// comments, unknown fields and a last event without its blank line are left out, as an
/// `EventSource` never sees them; so the file always loads.
package enum RecordedEventStream {
    /// The events the stream dispatched, each with the offset just past its blank line.
    package static func events(in body: Data) -> [(event: StreamEvent, end: Int)] {
        var events: [(event: StreamEvent, end: Int)] = []
        var current = StreamEvent()
        var data: [Substring] = []
        var hasField = false
        let bytes = [UInt8](body)
        var start = 0
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3; i = 3 }
        while i < bytes.count {
            guard bytes[i] == 0x0A || bytes[i] == 0x0D else { i += 1; continue }
            let line = String(decoding: bytes[start..<i], as: UTF8.self)
            // CRLF is one line ending; CR and LF alone are one each.
            var next = i + 1
            if bytes[i] == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
            if line.isEmpty {
                if hasField {
                    if !data.isEmpty { current.data = data.joined(separator: "\n") }
                    events.append((event: current, end: next))
                }
                current = StreamEvent()
                data = []
                hasField = false
            } else if !line.hasPrefix(":") {
                let field = EventStreamField(line: Substring(line))
                let value = field.value
                switch field.name {
                case "event": current.event = String(value); hasField = true
                case "data": data.append(value); hasField = true
                case "id" where !value.contains("\0"): current.id = String(value); hasField = true
                case "retry" where !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }):
                    if let ms = Int(value) { current.retry = ms; hasField = true }
                default: break
                }
            }
            start = next
            i = next
        }
        return events
    }

    /// The `.sse` file for `body`, its delays taken from `arrivals` (none: no delays).
    package static func sseFile(body: Data, arrivals: [BodyArrival]) -> Data {
        var text = ""
        var previous = Duration.zero
        for (event, end) in events(in: body) {
            let at = arrivals.first { $0.end >= end }?.at ?? previous
            let milliseconds = Int(((at - previous) / .milliseconds(1)).rounded())
            if milliseconds > 0 { text += ": delay \(milliseconds)ms\n" }
            previous = max(previous, at)
            text += event.wireText
        }
        return Data(text.utf8)
    }

    /// Whether a `Content-Type` is an event stream.
    package static func isEventStream(_ contentType: String?) -> Bool {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }
}
