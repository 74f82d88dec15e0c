package import Foundation
package import HTTPTypes

/// What the journal keeps of an exchange beyond its request line, for `stubd export har`: the
/// request's body and the answer as it went out. They are held as they were, not copied (a canned
/// answer is the catalog's object), and cut at `limit` and scrubbed of the request's secrets only
/// when an export reads them (`shown(for:masking:)`), as the journal masks its headers when read:
/// so a request pays a few stores for it, not a scan of its headers and bodies. A class, held by one
/// reference: as a struct of several counted fields, each copy of a `JournalEntry` (into its ring,
/// out of it) retained and released every one of them. Immutable, so a reader that copied an entry
/// out of the journal never sees it change: dropping an entry's bodies puts a new one in its place.
package final class JournalBodies: Sendable {
    /// The most of one body an export shows (64 KiB): enough to read an answer, and 1,000 entries of a
    /// session still fit the journal's body budget (`RequestJournal.bodyBudget`) once older ones go.
    package static let limit = 64 * 1024
    /// Kept of a larger body: past `limit`, so a secret that straddles the cut is still found whole.
    static let keptOfLarge = limit + 4096

    /// The request's body as sent, or its first `keptOfLarge` bytes (a copy) when larger.
    private let requestBody: Data
    private let requestSize: Int
    /// The answer as it went out, with a body of at most `keptOfLarge` bytes: a canned one up to that
    /// size is the catalog's object (its bytes shared, not copied), a larger one a copy of its start.
    private let answer: Outcome.Answer
    private let responseSize: Int
    /// Set when the session's body budget ran out and this entry's bodies were let go (oldest first).
    package let dropped: Bool
    /// The bytes counted against the session's budget: what an export can show of each body.
    let bytes: Int

    /// `request` and `answer` lent, not given: an initializer takes its arguments owned, so the caller
    /// copied the whole request head and the answer to pass them, for a few fields kept.
    init(request: __shared RequestHead, answer: __shared Outcome.Answer) {
        requestSize = request.body.count
        requestBody = requestSize > Self.keptOfLarge ? Data(request.body.prefix(Self.keptOfLarge)) : request.body
        switch answer {
        case .canned(let canned, let extra) where canned.body.count > Self.keptOfLarge:
            // Held whole, a large canned body of a catalog since reloaded would outlive it while the
            // budget counted 64 KiB of it: its first bytes are copied instead, as a generated one's.
            responseSize = canned.body.count
            var headers = canned.headers
            headers.append(contentsOf: extra.list)
            self.answer = .generated(GeneratedResponse(status: canned.status, headers: headers,
                                                       body: Data(canned.body.prefix(Self.keptOfLarge))))
        case .canned(let canned, _):
            responseSize = canned.body.count
            self.answer = answer
        case .generated(var generated):
            responseSize = generated.body.count
            if responseSize > Self.keptOfLarge { generated.body = Data(generated.body.prefix(Self.keptOfLarge)) }
            self.answer = .generated(generated)
        }
        dropped = false
        bytes = min(requestSize, Self.limit) + min(responseSize, Self.limit)
    }

    /// An entry whose bodies were let go: only the sizes and the answer's headers stay.
    private init(droppedFrom kept: JournalBodies) {
        requestBody = Data()
        requestSize = kept.requestSize
        responseSize = kept.responseSize
        let headers: HTTPFields
        switch kept.answer {
        case .canned(let canned, let extra):
            var all = canned.headers
            all.append(contentsOf: extra.list)
            headers = all
        case .generated(let generated):
            headers = generated.headers
        }
        answer = .generated(GeneratedResponse(status: .ok, headers: headers))
        dropped = true
        bytes = 0
    }

    /// The same entry without its bodies (the budget ran out): the sizes stay, to say what was there,
    /// and nothing of the answer's body is held any more (a canned one's included).
    func droppingBodies() -> JournalBodies { JournalBodies(droppedFrom: self) }

    /// What an export shows of one exchange.
    package struct Shown {
        package let requestBody: Data
        /// The request body's size as sent; more than `requestBody.count` when cut.
        package let requestSize: Int
        package let requestTruncated: Bool
        package let responseHeaders: HTTPFields
        package let responseBody: Data
        package let responseSize: Int
        package let responseTruncated: Bool
        package let dropped: Bool
        /// The exchange's secrets the bodies were scrubbed of, for an export to mask its URL and headers with.
        package let masker: SecretMasker
    }

    /// The bodies of `entry`, cut at `limit` and scrubbed as `record` scrubs (ExchangeScrubber): the
    /// values of the request's credential headers, query parameters, cookies and secret JSON or form
    /// fields, the answer's session cookie, and `--secret` values, wherever they appear.
    package func shown(for entry: JournalEntry, masking: JournalMasking) -> Shown {
        let parts = answerParts
        var headers = parts.headers
        let body = parts.body
        let masker = secrets(for: entry, masking: masking)
        if !masker.isEmpty {
            // A template may echo a credential into a header.
            headers = HTTPFields(headers.map { HTTPField(name: $0.name, value: masker.mask($0.value)) })
        }
        let request = dropped ? Data() : Self.cut(requestBody, masker)
        let response = dropped ? Data() : Self.cut(body, masker)
        return Shown(requestBody: request, requestSize: requestSize, requestTruncated: requestSize > Self.limit,
                     responseHeaders: headers, responseBody: response, responseSize: responseSize,
                     responseTruncated: responseSize > Self.limit, dropped: dropped, masker: masker)
    }

    /// Every secret of the exchange (ExchangeScrubber: the request's credential headers, query values,
    /// cookies and secret JSON or form fields, decoded, and the answer's session cookie), masked in
    /// every spelling and inside the JSON of what is shown: the bodies, the headers, the URL, the
    /// entry in the journal and its stream's messages. `known`: values masked before these, whose
    /// placeholders win (`--secret`'s `<NAME>`; the journal's `<masked>`).
    package func secrets(for entry: JournalEntry, masking: JournalMasking, known: SecretMasker? = nil) -> SecretMasker {
        ExchangeSecrets.masker(query: entry.query, requestHeaders: entry.headers, requestBody: requestBody,
                                 responseHeaders: answerParts.headers, known: known ?? masking.secrets, extraHeaders: masking.headers).readingJSON()
    }

    /// The answer's headers (the catalog's and those added for this request) and body.
    private var answerParts: (headers: HTTPFields, body: Data) {
        switch answer {
        case .canned(let canned, let extra):
            var headers = canned.headers
            let more = extra.list
            if !more.isEmpty { headers.append(contentsOf: more) }
            return (headers, canned.body)
        case .generated(let generated):
            return (generated.headers, generated.body)
        }
    }

    /// `body` scrubbed, then cut at `limit`: scrubbed a little past the cut first, so a secret that
    /// straddles it is found whole rather than leaving its first half behind.
    private static func cut(_ body: Data, _ masker: SecretMasker) -> Data {
        if body.count <= limit { return masker.mask(body) }
        let start = body.startIndex
        return Data(masker.mask(body[start..<start + min(body.count, keptOfLarge)]).prefix(limit))
    }
}
