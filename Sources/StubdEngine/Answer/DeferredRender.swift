import Foundation

/// A template answer whose rendering can take long (it loops), left by `StubEngine.respond` for
/// the transport to finish with `StubEngine.render(_:)` off its worker thread, so the requests
/// behind it on that worker are not held. Its hit and quotas are already counted; it is journaled
/// when rendered, with what rendering found.
///
/// A class, not a struct: every `Outcome` has room for one, and inline it made an outcome some
/// 500 bytes that each plain answer copied several times (memmove was 13% of `engine.respond`).
package final class DeferredRender: Sendable {
    let template: ResponseTemplate
    let canned: CannedResponse
    let extraHeaders: ExtraHeaders
    let input: TemplateInput
    let route: Route
    let quota: QuotaNote?
    let request: RequestHead
    let session: SessionState
    let wall: Date
    /// How the request broke the spec (`serve --spec`, report mode), for the journal once rendered.
    let requestProblems: [String]?

    init(template: ResponseTemplate, canned: CannedResponse, extraHeaders: ExtraHeaders, input: TemplateInput, route: Route,
         quota: QuotaNote?, request: RequestHead, session: SessionState, wall: Date, requestProblems: [String]? = nil) {
        self.template = template
        self.canned = canned
        self.extraHeaders = extraHeaders
        self.input = input
        self.route = route
        self.quota = quota
        self.request = request
        self.session = session
        self.wall = wall
        self.requestProblems = requestProblems
    }

    /// The same job with `problems` of the request said before any it had.
    func reporting(_ problems: [String]) -> DeferredRender {
        DeferredRender(template: template, canned: canned, extraHeaders: extraHeaders, input: input, route: route, quota: quota,
                       request: request, session: session, wall: wall, requestProblems: problems + (requestProblems ?? []))
    }
}
