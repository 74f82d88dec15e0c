import Foundation
import StubdProtocol

/// The templated fields of a stream's events (`template: true` on a response with `events:`),
/// parsed at load. Rendered when the stream opens, each event with `{{eventNumber}}` (its place in
/// the list, from 1) and `{{now}}` the time it is due: the session's clock at the open plus the
/// delays before it (a delay that varies counts as its shortest).
package struct EventTemplates: Sendable {
    struct Fields: Sendable {
        var event: Template?
        var data: Template?
        var id: Template?
    }
    /// One per event, in order.
    let fields: [Fields]

    func render(_ stream: EventStream, _ input: TemplateInput) -> EventStream {
        var events = stream.events
        var due = 0.0
        for (i, field) in fields.enumerated() where i < events.count {
            due += events[i].delay.map(EventTemplates.shortest) ?? 0
            var own = TemplateInput(request: input.request, parameters: input.parameters, now: input.now.addingTimeInterval(due),
                                    hits: input.hits, random: input.random, eventNumber: i + 1)
            own.state = input.state
            var each = TemplateRenderer(own, limit: .max)
            if let t = field.event { events[i].event = each.render(t).replacingOccurrences(of: "\n", with: " ") }
            if let t = field.data { events[i].data = each.render(t) }
            if let t = field.id { events[i].id = each.render(t).replacingOccurrences(of: "\n", with: " ") }
        }
        return EventStream(events: events, ending: stream.ending)
    }

    private static func shortest(_ delay: Delay) -> Double {
        switch delay {
        case .fixed(let d): return Double(d.nanoseconds) / 1e9
        case .uniform(let low, _): return Double(low.nanoseconds) / 1e9
        case .lognormal(let median, _): return Double(median.nanoseconds) / 1e9
        }
    }
}
