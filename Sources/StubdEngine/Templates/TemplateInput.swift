import Foundation

/// What a template can read while one request is answered.
package struct TemplateInput: Sendable {
    let request: RequestHead
    /// The route's `{name}` captures.
    let parameters: [String: String]
    /// The session's clock, read once for the request.
    let now: Date
    /// This route's hits in the session, this request included.
    let hits: Int
    /// The session's deterministic random numbers (`randomInt`, `uuid`): the same session id gives
    /// the same sequence on every run, so a failing test repeats.
    let random: @Sendable () -> UInt64
    /// In a stream of events: the event's place in the stub's list, from 1 (0 outside a stream).
    var eventNumber = 0
    /// The session's scenarios and resources, for the helpers that read them; nil where there is no
    /// session (a test rendering a template alone): they render empty then.
    var state: TemplateStateView?
}
