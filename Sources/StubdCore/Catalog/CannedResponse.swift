import Foundation
import StubdProtocol
import HTTPTypes

/// An answer built once at load time and served many times.
package final class CannedResponse: Sendable {
    package let status: HTTPResponse.Status
    /// Every header but Content-Length and Date, which the transport adds.
    package let headers: HTTPFields
    package let body: Data
    package let delay: Delay?
    package let fault: Fault?
    /// Dribble the body at this many bytes per second.
    package let bytesPerSecond: Int?
    /// Where the body came from, for the admin API.
    package let bodySource: String?
    /// `quotaStatus: github`: answered per request with the session's live quotas, in the shape of
    /// GitHub's `GET /rate_limit`, instead of `body`.
    package let quotaStatus: QuotaStatusStyle?
    /// `template: true`: the body and headers are rendered per request (see `ResponseTemplate`).
    package let template: ResponseTemplate?
    /// Where this answer sits in its catalog (`StubCatalog.responses`): the transport keeps its
    /// prepared form of each answer under this. Nil for a runtime stub's answers.
    package let slot: ResponseSlot?

    package convenience init(status: HTTPResponse.Status, headers: HTTPFields, body: Data,
                delay: Delay? = nil, fault: Fault? = nil, bytesPerSecond: Int? = nil, bodySource: String? = nil,
                quotaStatus: QuotaStatusStyle? = nil, template: ResponseTemplate? = nil) {
        self.init(status: status, headers: headers, body: body, delay: delay, fault: fault, bytesPerSecond: bytesPerSecond,
                  bodySource: bodySource, quotaStatus: quotaStatus, template: template, slot: nil)
    }

    private init(status: HTTPResponse.Status, headers: HTTPFields, body: Data, delay: Delay?, fault: Fault?,
                 bytesPerSecond: Int?, bodySource: String?, quotaStatus: QuotaStatusStyle?, template: ResponseTemplate?,
                 slot: ResponseSlot?) {
        self.template = template
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
        self.bytesPerSecond = bytesPerSecond
        self.bodySource = bodySource
        self.quotaStatus = quotaStatus
        self.slot = slot
    }

    /// The same answer, filed at `slot` of a catalog being built (the body is shared, not copied).
    func placed(at slot: ResponseSlot) -> CannedResponse {
        CannedResponse(status: status, headers: headers, body: body, delay: delay, fault: fault,
                       bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: quotaStatus, template: template,
                       slot: slot)
    }

    /// A template's answer for one request: this one's status, delay, fault and throttle, with the
    /// rendered body and headers, outside any catalog (the transport makes it a one-off response).
    func rendered(body: Data, headers: HTTPFields) -> CannedResponse {
        CannedResponse(status: status, headers: headers, body: body, delay: delay, fault: fault,
                       bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: nil, template: nil, slot: nil)
    }

    /// Served as-is from a prepared transport object: no per-request headers, delay, fault or throttle.
    package var isStatic: Bool { delay == nil && fault == nil && bytesPerSecond == nil && quotaStatus == nil }
}
