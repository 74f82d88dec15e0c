import Foundation
import StubdProtocol
import Yams

/// A response that streams server-sent events: `events:` listed in the manifest, or `file:` naming
/// an `.sse` file, with `dropAfter` / `stallAfter` to break the stream part-way.
extension ManifestParser {
    static let eventKeys = ["events", "dropAfter", "stallAfter"]

    /// The stream of a response whose map has `events:`, an `.sse` `file:`, or an ending; nil (with
    /// problems said) when it has none of them or they are wrong.
    mutating func parseEventStream(_ map: Node.Mapping, node: Node, templated: Bool = false, parameters: [String] = []) -> EventStream? {
        let fileNode = map["file"]
        let sseFile = fileNode.flatMap(\.string).flatMap { $0.fileExtension?.lowercased() == "sse" ? $0 : nil }
        guard map["events"] != nil || sseFile != nil || map["dropAfter"] != nil || map["stallAfter"] != nil else { return nil }
        let clashing = ["body", "json", "content", "quotaStatus", "throttle", "fault"].filter { map[$0] != nil }
            + (map["events"] != nil && fileNode != nil ? ["file"] : [])
        if !clashing.isEmpty {
            add(node, "a response that streams events has no \(clashing.joined(separator: " or "))",
                hint: "events come from 'events:' or an .sse 'file:'; break the stream with dropAfter or stallAfter")
        }
        var events: [StreamEvent] = []
        var fieldTemplates: [EventTemplates.Fields] = []
        if templated, map["events"] == nil, let t = map["template"] {
            add(t, "template: true renders the events listed under 'events:', not an .sse file's", hint: "list the events in the manifest")
        }
        if let list = map["events"] {
            guard case .sequence(let items) = list else {
                add(list, "events must be a list (each entry starts with '- ')", hint: "events: [{ data: hello }, { data: world, delay: 1s }]")
                return nil
            }
            for item in items {
                guard let event = parseEvent(item) else { continue }
                events.append(event)
                if templated, let fields = item.mapping { fieldTemplates.append(eventTemplates(fields, parameters: parameters)) }
            }
            if items.isEmpty { add(list, "events lists no event", hint: "events: [{ data: hello }]") }
        } else if let sseFile, fileNode != nil {
            switch reader.readReferenced(sseFile) {
            case .success(let found):
                let parsed = EventStreamParser.parse(String(decoding: found.data, as: UTF8.self))
                for e in parsed.problems { problems.add(found.path, line: e.line, column: e.column, e.message, hint: e.hint) }
                events = parsed.events
            case .failure:
                // The response's own `file:` reading says what is wrong with the reference.
                break
            }
        } else {
            add(node, "dropAfter and stallAfter break a stream of events, and this response has none",
                hint: "add 'events:' or an .sse 'file:'")
            return nil
        }
        var ending = StreamEnding.complete
        if let d = map["dropAfter"], let s = map["stallAfter"] {
            add(s, "a stream ends one way: dropAfter or stallAfter, not both")
            _ = d
        } else if let d = map["dropAfter"], let n = int(d, "dropAfter") {
            if n < 0 { add(d, "dropAfter must be 0 or more (events sent before the connection closes)") } else { ending = .drop(after: n) }
        } else if let s = map["stallAfter"], let n = int(s, "stallAfter") {
            if n < 0 { add(s, "stallAfter must be 0 or more (events sent before the stream stops)") } else { ending = .stall(after: n) }
        }
        return EventStream(events: events, ending: ending, templates: templated && map["events"] != nil ? EventTemplates(fields: fieldTemplates) : nil)
    }

    /// An event's `event`, `data` and `id` as templates (`data` only when written as a string); each
    /// problem placed where it was written.
    private mutating func eventTemplates(_ map: Node.Mapping, parameters: [String]) -> EventTemplates.Fields {
        var fields = EventTemplates.Fields()
        for key in ["event", "data", "id"] {
            guard let valueNode = map[key], case .scalar(let scalar) = valueNode, scalar.string.contains("{{") else { continue }
            do {
                let template = try TemplateParser.parse(scalar.string, parameters: parameters)
                switch key {
                case "event": fields.event = template
                case "data": fields.data = template
                default: fields.id = template
                }
            } catch {
                for e in error.all {
                    let (line, column) = source.place(line: e.line, column: e.column, inValueOf: valueNode)
                    problems.add(file, line: line, column: column, "template in an event's \(key): \(e.message)", hint: e.hint)
                }
            }
        }
        return fields
    }

    /// One `events:` entry: `{ event, data, id, retry, delay }`; `data` may be a string (its lines
    /// become `data:` lines) or any other YAML value, sent as one line of JSON.
    private mutating func parseEvent(_ node: Node) -> StreamEvent? {
        guard let map = mapping(node, "an event") else { return nil }
        checkKeys(map, ["event", "data", "id", "retry", "delay"], in: "an event")
        var event = StreamEvent()
        if let e = map["event"], let text = string(e, "event") {
            if text.contains(where: \.isNewline) { add(e, "an event's type is one line") } else { event.event = text }
        }
        if let d = map["data"] {
            if case .scalar(let scalar) = d {
                event.data = scalar.string
            } else {
                event.data = json(d).serialized
            }
        }
        if let i = map["id"], let text = string(i, "id") {
            if text.contains("\0") || text.contains(where: \.isNewline) { add(i, "an id is one line without NUL") } else { event.id = text }
        }
        if let r = map["retry"], let n = int(r, "retry") {
            if n < 0 { add(r, "retry is milliseconds, 0 or more") } else { event.retry = n }
        }
        if let d = map["delay"] { event.delay = delay(d) }
        if event.event == nil, event.data == nil, event.id == nil, event.retry == nil {
            add(node, "an event needs data, event, id or retry", hint: "- { data: hello }")
            return nil
        }
        return event
    }
}
