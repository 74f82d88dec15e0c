import Foundation

/// A template answer whose rendering can take long (it loops), left by `StubEngine.respond` for
/// the transport to finish with `StubEngine.render(_:)` off its worker thread, so the requests
/// behind it on that worker are not held. Its hit and quotas are already counted; it is journaled
/// when rendered, with what rendering found.
package struct DeferredRender: Sendable {
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
    var requestProblems: [String]?
}
