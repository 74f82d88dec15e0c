import Foundation

// Shaped like the hits reports because the answers are (see the note in HitsReport.swift): each
// document is one admin answer's JSON, field for field.

/// `GET /__stubd/requests?limit=N`: the session's latest requests, newest last.
public struct JournalReport: Sendable, Equatable, Codable {
    /// One request as it came, and how it was answered.
    public struct Entry: Sendable, Equatable, Codable {
        /// ISO 8601 with fractional seconds.
        public let time: String
        /// The method as sent: `GET`, `POST`.
        public let method: String
        /// The path, without the query string.
        public let path: String
        /// The status answered; 404 (or 405) for a request no route matched.
        public let status: Int
        /// Query parameters, name → value (the first of a repeated name); credentials (`appid`, `api_key`,
        /// `token`) are masked.
        public let query: [String: String]
        /// Credentials (`Authorization`, `Cookie`, API-key headers) are masked.
        public let headers: [String: String]
        /// The route that answered (its name or signature); nil when none did.
        public let route: String?
        /// For a request nothing answered: the nearest routes and why each missed.
        public let nearest: [String]?
        /// What a template could not fill from this request, and so rendered empty.
        public let notes: [String]?
        /// With `serve --spec`: how the request, or the answer a template rendered, breaks the spec
        /// (`query.units: "celsius" is not one of metric, imperial, standard`).
        public let contract: [String]?
        /// Microseconds from the request's arrival at the engine to its answer being ready (matching,
        /// counting, quotas, a template's rendering); a delay or throttle the stub asks for comes after.
        public let tookMicroseconds: Int?
        /// For a quota'd route: the state it saw, `wunderground 7/10 minute`, or `wunderground exceeded, retry in 42s`.
        public let quota: String?
        /// For a WebSocket or an event stream: what it carried, oldest first (the newest the session
        /// keeps, as many messages as the journal keeps requests); nil for a plain request.
        public let messages: [StreamMessage]?
        /// For a request on a path a GraphQL route listens on: the operation and its variables, read
        /// from the body as the journal kept it; nil for any other request, or one not read as GraphQL.
        public let graphQL: GraphQLCall?

        /// An entry with the fields given.
        public init(time: String, method: String, path: String, status: Int, query: [String: String],
                    headers: [String: String], route: String?, nearest: [String]?, notes: [String]? = nil, contract: [String]? = nil,
                    tookMicroseconds: Int? = nil, quota: String? = nil, messages: [StreamMessage]? = nil, graphQL: GraphQLCall? = nil) {
            self.time = time; self.method = method; self.path = path; self.status = status; self.query = query
            self.headers = headers; self.route = route; self.nearest = nearest; self.notes = notes; self.contract = contract
            self.tookMicroseconds = tookMicroseconds; self.quota = quota; self.messages = messages; self.graphQL = graphQL
        }

        private enum CodingKeys: String, CodingKey {
            case time, method, path, status, query, headers, route, nearest, notes, contract, tookMicroseconds, quota, messages, graphQL
        }

        // `route` is written as null when nothing answered: readers tell "no route" from "not said".
        /// Writes `route` as null when no route answered, and the other optional fields only when set.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(time, forKey: .time)
            try c.encode(method, forKey: .method)
            try c.encode(path, forKey: .path)
            try c.encode(status, forKey: .status)
            try c.encode(query, forKey: .query)
            try c.encode(headers, forKey: .headers)
            try c.encode(route, forKey: .route)
            try c.encodeIfPresent(nearest, forKey: .nearest)
            try c.encodeIfPresent(notes, forKey: .notes)
            try c.encodeIfPresent(contract, forKey: .contract)
            try c.encodeIfPresent(tookMicroseconds, forKey: .tookMicroseconds)
            try c.encodeIfPresent(quota, forKey: .quota)
            try c.encodeIfPresent(messages, forKey: .messages)
            try c.encodeIfPresent(graphQL, forKey: .graphQL)
        }
    }

    /// One WebSocket message or server-sent event of a stream's journal entry.
    public struct StreamMessage: Sendable, Equatable, Codable {
        /// Its place on its connection, from 1: a gap before the first listed says older ones were dropped.
        public let index: Int
        /// `sent` (by stubd: scripted, a reply, a push, an event) or `received` (from the app).
        public let direction: String
        /// ISO 8601 on the session's clock (its virtual time when it has one).
        public let time: String
        /// The whole message's size in bytes (an event's as written on the wire).
        public let bytes: Int
        /// A text message or an event (its lines as sent), cut to 2 KiB when longer (`truncated`).
        public let text: String?
        /// A binary message in base64, its first 2 KiB when longer (`truncated`).
        public let binary: String?
        /// True when `text` or `binary` holds only the start of the message.
        public let truncated: Bool?

        /// A message as given.
        public init(index: Int, direction: String, time: String, bytes: Int, text: String?, binary: String?, truncated: Bool?) {
            self.index = index; self.direction = direction; self.time = time; self.bytes = bytes
            self.text = text; self.binary = binary; self.truncated = truncated
        }
    }

    /// Requests journaled since the session began or was last reset, those the ring has dropped included.
    public let total: Int
    /// How many requests the ring holds (1000); older ones are dropped.
    public let capacity: Int
    /// The newest `limit` requests, oldest first.
    public let requests: [Entry]
    /// A report as given.
    public init(total: Int, capacity: Int, requests: [Entry]) {
        self.total = total; self.capacity = capacity; self.requests = requests
    }
}
