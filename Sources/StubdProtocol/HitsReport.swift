// Each hits document (this, HitCount, HitWait) is one admin answer's JSON, field for field. They
// look alike because the answers do; a shared base or nesting would change the JSON that the
// client, `stubd hits` and scripts read, so each stays flat and spelled out.

/// `GET /__stubd/hits`: every route's hits in the session, hits per concrete path, the requests that
/// matched nothing, and the quotas.
public struct HitsReport: Sendable, Equatable, Codable {
    public struct RouteHits: Sendable, Equatable, Codable {
        /// The route's name, or its signature when it has none.
        public let route: String
        public let signature: String
        public let hits: Int
        public let source: String
        public init(route: String, signature: String, hits: Int, source: String) {
            self.route = route; self.signature = signature; self.hits = hits; self.source = source
        }
    }

    public let session: String
    public let routes: [RouteHits]
    /// `GET /api/KEY/x.json` → hits.
    public let paths: [String: Int]
    public let unmatched: Int
    public let quotas: [QuotasReport.Quota]
    /// Requests passed on to the real API (`serve --proxy`), `GET /data/2.5/weather` → count; they
    /// are in `paths` too.
    public let forwarded: [String: Int]

    public init(session: String, routes: [RouteHits], paths: [String: Int], unmatched: Int, quotas: [QuotasReport.Quota],
                forwarded: [String: Int] = [:]) {
        self.session = session; self.routes = routes; self.paths = paths; self.unmatched = unmatched; self.quotas = quotas
        self.forwarded = forwarded
    }
}
