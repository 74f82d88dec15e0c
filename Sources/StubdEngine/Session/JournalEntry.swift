package import Foundation
package import HTTPTypes
package import StubdProtocol

/// One request as the journal remembers it.
package struct JournalEntry: Sendable {
    package let time: Date
    package let method: HTTPRequest.Method
    package let path: String
    /// The request's, as RequestHead holds them.
    package let query: [QueryItem]
    package let headers: HTTPFields
    package let status: HTTPResponse.Status
    /// The route that answered, or nil.
    package let route: String?
    /// For an unmatched request: the nearest routes and why each missed.
    package let misses: [String]
    /// What a template could not fill from the request (rendered empty); nil when nothing was missing.
    package let notes: [String]?
    /// With a spec: how the request or a rendered answer breaks it; nil when nothing does.
    package let contract: [String]?
    /// From `time` to the answer being ready, in microseconds; nil when not measured.
    package let tookMicroseconds: Int32?
    /// The quota state the request saw, formatted when the journal is read.
    let quota: JournalQuotaNote?
    /// For a WebSocket or an event stream: the id its messages are kept under (`StreamJournal`).
    package let connection: Int?
    /// The session's clock when the request came (`time` is the wall clock's): a HAR's `startedDateTime`.
    package let sessionTime: Date
    /// The request's body and the answer, for `stubd export har`: held as they were and scrubbed when
    /// the HAR is written (`JournalBodies.shown`), as `document` masks the headers; nil when not kept
    /// (a request passed on to the real API). The journal lets the oldest go when its budget runs out.
    package internal(set) var bodies: JournalBodies?

    init(time: Date, method: HTTPRequest.Method, path: String, query: [QueryItem],
         headers: HTTPFields, status: HTTPResponse.Status, route: String?, misses: [String], notes: [String]? = nil,
         contract: [String]? = nil, tookMicroseconds: Int32? = nil, quota: JournalQuotaNote? = nil, connection: Int? = nil,
         sessionTime: Date? = nil, bodies: JournalBodies? = nil) {
        self.connection = connection
        self.sessionTime = sessionTime ?? time
        self.bodies = bodies
        self.contract = contract
        self.tookMicroseconds = tookMicroseconds
        self.quota = quota
        self.time = time
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.status = status
        self.route = route
        self.misses = misses
        self.notes = notes
    }

    /// Every secret of this exchange, for all the journal shows of it (`document`, its stream's
    /// messages): the values of credential headers and secret query parameters as `<masked>`, and
    /// what `JournalBodies.secrets` finds besides (the request's JSON or form fields, decoded).
    package func secretMasker(masking: JournalMasking) -> SecretMasker {
        var found: [(value: String, placeholder: String)] = []
        for q in query where SecretNames.isSecretParameter(q.name) {
            if let value = q.value, value.count >= 3 { found.append((value, "<masked>")) }
        }
        for h in headers where masking.headers.contains(h.name.canonicalName) {
            found.append((h.value, "<masked>"))
            // `Bearer abc`: the token alone may show up elsewhere.
            if let token = SecretNames.credential(afterScheme: h.value), token.count >= 3 { found.append((token, "<masked>")) }
        }
        let known = masking.secrets.adding(found)
        if let bodies { return bodies.secrets(for: self, masking: masking, known: known) }
        return ExchangeSecrets.masker(query: query, requestHeaders: headers, requestBody: Data(), responseHeaders: [:], known: known,
                                        extraHeaders: masking.headers).readingJSON()
    }

    /// The entry as `GET /__stubd/requests` shows it, credentials masked. Masked when read, not
    /// when recorded, so the request path pays nothing for it.
    /// `masker`: `secretMasker(masking:)`, found once for the entry and its stream's messages.
    /// `messages`: the stream's, from `StreamJournal` (a stream with none kept lists an empty array).
    package func document(masking: JournalMasking, masker: SecretMasker, messages: [JournalReport.StreamMessage]? = nil,
                          graphQL: GraphQLCall? = nil) -> JournalReport.Entry {
        return JournalReport.Entry(
            time: JournalEntry.timeFormat(time), method: method.rawValue, path: masker.mask(path), status: status.code,
            query: Dictionary(query.map { q in
                (q.name, SecretNames.isSecretParameter(q.name) && q.value?.isEmpty == false ? "<masked>" : masker.mask(q.value ?? ""))
            }, uniquingKeysWith: { a, _ in a }),
            headers: Dictionary(headers.map { header in
                (header.name.rawName, masking.headers.contains(header.name.canonicalName) ? JournalEntry.mask(header.value) : masker.mask(header.value))
            }, uniquingKeysWith: { a, b in a + ", " + b }),
            route: route, nearest: misses.isEmpty ? nil : misses.map(masker.mask), notes: notes.map { $0.map(masker.mask) },
            contract: contract.map { $0.map(masker.mask) }, tookMicroseconds: tookMicroseconds.map(Int.init),
            quota: quota?.description, messages: connection == nil ? nil : (messages ?? []), graphQL: graphQL)
    }

    /// `Bearer abc123` → `Bearer <masked>`: the scheme still says what kind of credential was sent.
    package static func mask(_ value: String) -> String {
        let words = value.split(separator: " ", maxSplits: 1)
        return words.count == 2 && words[0].allSatisfy(\.isLetter) ? "\(words[0]) <masked>" : "<masked>"
    }

    package static func timeFormat(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
