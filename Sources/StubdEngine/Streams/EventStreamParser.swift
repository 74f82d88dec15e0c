import Foundation
import StubdProtocol

/// Reads an `.sse` file: server-sent events in their wire format (WHATWG HTML, "Server-sent
/// events"), the way a captured stream reads. Fields are `event`, `data`, `id` and `retry`; a blank
/// line ends an event; a line starting with `:` is a comment. One comment is stubd's:
/// `: delay 200ms` waits that long before the event it stands in.
///
/// Where a browser ignores what it does not understand (an unknown field, a `retry` that is not a
/// number), a stub file is more likely wrong than clever, so those are load errors with their place.
/// The last event needs no blank line after it.
package enum EventStreamParser {
    package static let fields = ["event", "data", "id", "retry"]

    /// The events, and every problem at once (the events count only when there are none).
    package static func parse(_ text: String) -> (events: [StreamEvent], problems: [EventStreamSyntaxError]) {
        var events: [StreamEvent] = []
        var problems: [EventStreamSyntaxError] = []
        var current = StreamEvent()
        var dataLines: [Substring] = []
        var started = false // a field (or a delay) was read since the last blank line
        var delayLine = 0
        func finish() {
            if !dataLines.isEmpty { current.data = dataLines.joined(separator: "\n") }
            if current.event != nil || current.data != nil || current.id != nil || current.retry != nil {
                events.append(current)
            } else if current.delay != nil {
                problems.append(.init(line: delayLine, column: 1, message: "a ': delay' with no event after it",
                                      hint: "put the delay just above the event's fields, or remove it"))
            }
            current = StreamEvent()
            dataLines = []
            started = false
        }
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        for (offset, line) in lines(body).enumerated() {
            let number = offset + 1
            func problem(_ column: Int, _ message: String, hint: String? = nil) {
                problems.append(.init(line: number, column: column, message: message, hint: hint))
            }
            if line.isEmpty {
                if started { finish() }
                continue
            }
            if line.first == ":" {
                var comment = line.dropFirst()
                if comment.first == " " { comment = comment.dropFirst() }
                // An ordinary comment: not sent (a stream's keep-alive comments are the transport's business).
                guard comment.hasPrefix("delay"), comment.dropFirst(5).first.map({ $0 == " " || $0 == "\t" }) ?? true else { continue }
                var rest = comment.dropFirst(5)
                while rest.first == " " || rest.first == "\t" { rest = rest.dropFirst() }
                let value = String(rest.trimmingTrailingSpaces)
                let column = line.distance(from: line.startIndex, to: rest.startIndex) + 1
                guard let duration = Duration(manifestText: value) else {
                    problem(column, "'\(value)' is not a duration", hint: "': delay 200ms' (ms, s, m or h; under a day)")
                    continue
                }
                if current.delay != nil { problem(1, "a second delay for one event", hint: "give each event one ': delay' line") }
                if current.event != nil || current.id != nil || current.retry != nil || !dataLines.isEmpty {
                    problem(1, "a delay inside an event, after its fields", hint: "put ': delay' above the event's first field (it waits before the event)")
                }
                current.delay = .fixed(duration)
                delayLine = number
                started = true
                continue
            }
            let field = EventStreamField(line: line)
            let (name, value) = (field.name, field.value)
            let valueColumn = line.count - value.count + 1
            started = true
            switch name {
            case "data":
                dataLines.append(value)
            case "event":
                if current.event != nil { problem(1, "a second 'event:' line in one event", hint: "end the event before with a blank line") }
                current.event = String(value)
            case "id":
                if value.contains("\0") { problem(valueColumn, "an id may not contain NUL", hint: "a client ignores such an id") }
                if current.id != nil { problem(1, "a second 'id:' line in one event", hint: "end the event before with a blank line") }
                current.id = String(value)
            case "retry":
                guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int(value) else {
                    problem(valueColumn, "retry '\(value)' is not a whole number of milliseconds", hint: "retry: 3000")
                    continue
                }
                if current.retry != nil { problem(1, "a second 'retry:' line in one event", hint: "end the event before with a blank line") }
                current.retry = ms
            default:
                let suggestion = fields.min { editDistance(String(name), $0) < editDistance(String(name), $1) }
                let hint = suggestion.flatMap { editDistance(String(name), $0) <= 2 ? "did you mean '\($0)'?" : nil }
                    ?? "fields are event, data, id and retry; a comment starts with ':'"
                problem(1, "unknown field '\(name)'", hint: hint)
            }
        }
        if started { finish() }
        if events.isEmpty, problems.isEmpty {
            problems.append(.init(line: 1, column: 1, message: "no events", hint: "write at least one, such as 'data: hello' followed by a blank line"))
        }
        return (events, problems)
    }

    /// Lines ended by CRLF, LF or CR, as the format allows; a last line without an end counts.
    static func lines(_ text: Substring) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        // Unicode scalars, not Characters: "\r\n" is one Character.
        let scalars = text.unicodeScalars
        var s = scalars.startIndex
        while s < scalars.endIndex {
            let c = scalars[s]
            if c == "\n" || c == "\r" {
                i = s
                lines.append(text[start..<i])
                var next = scalars.index(after: s)
                if c == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                s = next
                start = s
            } else {
                s = scalars.index(after: s)
            }
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }
}

private extension Substring {
    var trimmingTrailingSpaces: Substring {
        var s = self
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
