package import Foundation
package import StubdProtocol
package import HTTPTypes

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
    /// `content:` the same answer in other media types (each with its own `Content-Type`), this one
    /// first: the transport sends the one the request's `Accept` prefers (`StubEngine+Negotiation`).
    package let alternatives: [CannedResponse]
    /// `events:` (or an `.sse` file): the answer is a stream of server-sent events, sent each when due.
    package let events: EventStream?
    /// `websocket:` (or a `.ws` file): the answer is an upgrade to a WebSocket that runs this script.
    package let webSocket: WebSocketScript?

    /// What a cache keeps to ask again: the `ETag` and `Last-Modified` a static 200 answer carries.
    package struct Validators: Sendable {
        /// Quoted, as sent: the stub's own `ETag`, else a fingerprint of the content (`EntityTag`).
        package let entityTag: String
        /// Seconds since 1970: the stub's own `Last-Modified`, else when this process first served the content.
        package let lastModified: Int
    }
    /// Set for a 200 answer with a fixed body (no template, stream, WebSocket, fault or quota
    /// status): it carries `ETag`, `Last-Modified` and `Accept-Ranges: bytes`, and the engine answers
    /// `If-None-Match` / `If-Modified-Since` with a 304 and `Range` with a 206 (`ConditionalRequest`).
    package let validators: Validators?

    package init(status: HTTPResponse.Status, headers: HTTPFields, body: Data,
                delay: Delay? = nil, fault: Fault? = nil, bytesPerSecond: Int? = nil, bodySource: String? = nil,
                quotaStatus: QuotaStatusStyle? = nil, template: ResponseTemplate? = nil, alternatives: [CannedResponse] = [],
                events: EventStream? = nil, webSocket: WebSocketScript? = nil, validated: Bool = true) {
        var headers = headers
        if validated, status == .ok, template == nil, events == nil, webSocket == nil, quotaStatus == nil, fault == nil {
            let tag = headers[.eTag] ?? EntityTag.of(body: body, contentType: headers[.contentType])
            let date = headers[.lastModified].flatMap { HTTPDate.parse(Substring($0)) } ?? ContentDates.firstSeen(tag)
            if headers[.eTag] == nil { headers.append(HTTPField(name: .eTag, value: tag)) }
            if headers[.lastModified] == nil { headers.append(HTTPField(name: .lastModified, value: HTTPDate.format(date))) }
            if headers[.acceptRanges] == nil { headers.append(HTTPField(name: .acceptRanges, value: "bytes")) }
            validators = Validators(entityTag: tag, lastModified: date)
        } else {
            validators = nil
        }
        self.webSocket = webSocket
        self.template = template
        self.events = events
        self.alternatives = alternatives
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
        self.bytesPerSecond = bytesPerSecond
        self.bodySource = bodySource
        self.quotaStatus = quotaStatus
    }

    /// A template's answer for one request: this one's status, delay, fault and throttle, with the
    /// rendered body and headers, outside any catalog (the transport makes it a one-off response).
    func rendered(body: Data, headers: HTTPFields, events: EventStream? = nil) -> CannedResponse {
        CannedResponse(status: status, headers: headers, body: body, delay: delay, fault: fault,
                       bytesPerSecond: bytesPerSecond, bodySource: bodySource, quotaStatus: nil, template: nil, events: events ?? self.events,
                       webSocket: webSocket, validated: false)
    }

    /// This answer as a conditional or range request gets it (`ConditionalRequest.Verdict`): a 304
    /// with the validators and no body, a 206 of the bytes asked for, or a 416 naming the length; its
    /// delay, fault and throttle kept. Nil for the whole answer.
    func answering(_ verdict: ConditionalRequest.Verdict) -> CannedResponse? {
        var kept = headers
        let status: HTTPResponse.Status
        let part: Data
        switch verdict {
        case .full:
            return nil
        case .notModified:
            // RFC 9110 §15.4.5: the fields a 200 would have carried that a cache updates, and no content.
            kept = HTTPFields(headers.filter { [.eTag, .lastModified, .cacheControl, .expires, .vary, .contentLocation].contains($0.name) })
            status = .notModified
            part = Data()
        case .partial(let lower, let upper):
            kept[.contentRange] = "bytes \(lower)-\(upper)/\(body.count)"
            status = .partialContent
            part = body.subdata(in: body.startIndex + lower ..< body.startIndex + upper + 1)
        case .unsatisfiable:
            kept = HTTPFields(headers.filter { $0.name != .contentType && $0.name != .eTag && $0.name != .lastModified })
            kept[.contentRange] = "bytes */\(body.count)"
            status = .rangeNotSatisfiable
            part = Data()
        }
        return CannedResponse(status: status, headers: kept, body: part, delay: delay, fault: fault, bytesPerSecond: bytesPerSecond,
                              bodySource: bodySource, validated: false)
    }

    /// Served as-is from a prepared transport object: no per-request headers, delay, fault, throttle or stream.
    package var isStatic: Bool { delay == nil && fault == nil && bytesPerSecond == nil && quotaStatus == nil && events == nil && webSocket == nil }
}
