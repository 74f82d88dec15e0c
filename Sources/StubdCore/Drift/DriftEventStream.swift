package import Foundation
package import StubdEngine

/// A stream of server-sent events as `stubd drift` compares it: a JSON document of its events,
/// grouped by event name (`message` when none), each `{ data, id, retry }` with a `data` that is JSON
/// read as JSON. So the comparison of JSON bodies says what changed in a stream's shape: an event
/// name added or gone (`/done added`), ids no longer sent (`/message/*/id removed`), a field of the
/// data renamed (`/message/*/data/choices/*/delta/content removed`); how many events came, and their
/// text, differ between two live streams of an LLM and so read as volatile, not as drift.
package enum DriftEventStream {
    package static func json(of body: Data) -> JSONValue {
        var byName: [String: [JSONValue]] = [:]
        for (event, _) in RecordedEventStream.events(in: body) {
            var fields: [String: JSONValue] = [:]
            if let data = event.data { fields["data"] = (try? JSONParser.parse(Data(data.utf8))) ?? .string(data) }
            if let id = event.id { fields["id"] = .string(id) }
            if let retry = event.retry { fields["retry"] = .number(Double(retry)) }
            byName[event.event ?? "message", default: []].append(.object(fields))
        }
        return .object(byName.mapValues { .array($0) })
    }
}
