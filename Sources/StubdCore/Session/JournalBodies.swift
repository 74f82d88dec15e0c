package import Foundation
package import HTTPTypes

/// What the journal keeps of an exchange beyond its request line, for `stubd export har`: the
/// answer's headers and both bodies, each cut at `limit`, with the request's secrets scrubbed out as
/// `record` scrubs them (ExchangeScrubber) before they are kept. A body is held as the Data it
/// already was (a canned answer's shares the catalog's bytes); a copy is made only to cut or scrub it.
package struct JournalBodies: Sendable {
    /// The most of one body kept (64 KiB): enough to read an answer, and 1,000 entries of a session
    /// still fit the journal's body budget (`RequestJournal.bodyBudget`) once older ones are dropped.
    package static let limit = 64 * 1024

    package let requestBody: Data
    /// The request body's size as sent; more than `requestBody.count` when cut.
    package let requestSize: Int
    package let requestTruncated: Bool
    package let responseHeaders: HTTPFields
    package let responseBody: Data
    package let responseSize: Int
    package let responseTruncated: Bool
    /// Set when the session's body budget ran out and this entry's bodies were let go (oldest first).
    package private(set) var dropped = false

    /// The bytes held against the session's budget.
    var bytes: Int { requestBody.count + responseBody.count }

    /// The same entry without its bodies (the budget ran out): the sizes stay, to say what was there.
    func droppingBodies() -> JournalBodies {
        var copy = JournalBodies(requestBody: Data(), requestSize: requestSize, requestTruncated: requestTruncated,
                                 responseHeaders: responseHeaders, responseBody: Data(), responseSize: responseSize,
                                 responseTruncated: responseTruncated)
        copy.dropped = true
        return copy
    }

    private init(requestBody: Data, requestSize: Int, requestTruncated: Bool, responseHeaders: HTTPFields,
                 responseBody: Data, responseSize: Int, responseTruncated: Bool) {
        self.requestBody = requestBody
        self.requestSize = requestSize
        self.requestTruncated = requestTruncated
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseSize = responseSize
        self.responseTruncated = responseTruncated
    }

    /// The bodies of `request` answered by `answer`, scrubbed: the values of credential headers,
    /// query parameters, cookies and secret JSON or form fields of the request, the answer's session
    /// cookie, and `--secret` values, wherever they appear. Nothing is scanned when none of those
    /// exists (a plain GET of a server without `--secret`).
    init(request: RequestHead, answer: Outcome.Answer, masking: JournalMasking) {
        var headers: HTTPFields
        var body: Data
        switch answer {
        case .canned(let canned, let extra):
            headers = canned.headers
            let more = extra.list
            if !more.isEmpty { headers.append(contentsOf: more) }
            body = canned.body
        case .generated(let generated):
            headers = generated.headers
            body = generated.body
        }
        let masker = JournalBodies.needsScrubbing(request, headers, masking)
            ? ExchangeScrubber.secrets(query: request.query, requestHeaders: request.headers, requestBody: request.body,
                                       responseHeaders: headers, known: masking.secrets, extraHeaders: masking.headers)
            : SecretMasker()
        (requestBody, requestTruncated) = JournalBodies.kept(request.body, masker)
        requestSize = request.body.count
        (responseBody, responseTruncated) = JournalBodies.kept(body, masker)
        responseSize = body.count
        if !masker.isEmpty {
            // A template may echo a credential into a header.
            headers = HTTPFields(headers.map { HTTPField(name: $0.name, value: masker.mask($0.value)) })
        }
        responseHeaders = headers
    }

    /// Whether anything secret may be in the exchange: only then is a body scanned.
    private static func needsScrubbing(_ request: RequestHead, _ responseHeaders: HTTPFields, _ masking: JournalMasking) -> Bool {
        if !masking.secrets.isEmpty || !request.body.isEmpty { return true }
        if request.query.contains(where: { SecretNames.isSecretParameter($0.name) }) { return true }
        if request.headers.contains(where: { masking.headers.contains($0.name.canonicalName) }) { return true }
        return responseHeaders.contains { $0.name == .setCookie }
    }

    /// `body` cut at `limit` and scrubbed. Scrubbed a little past the cut first, so a secret that
    /// straddles it is found whole rather than leaving its first half behind.
    private static func kept(_ body: Data, _ masker: SecretMasker) -> (Data, truncated: Bool) {
        if body.count <= limit { return (masker.mask(body), false) }
        let start = body.startIndex
        let scrubbed = masker.mask(body[start..<start + min(body.count, limit + 4096)])
        return (scrubbed.prefix(limit), true)
    }
}
