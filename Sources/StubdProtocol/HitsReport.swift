// Each hits document (this, HitCount, HitWait) is one admin answer's JSON, field for field. They
// look alike because the answers do; a shared base or nesting would change the JSON that the
// client, `stubd hits` and scripts read, so each stays flat and spelled out.

/// `GET /__stubd/hits`: every route's hits in the session, hits per concrete path, the requests that
/// matched nothing, and the quotas.
public struct HitsReport: Sendable, Equatable, Codable {
    /// One route and its hits; every route of the catalog and every runtime stub is listed, hit or not.
    public struct RouteHits: Sendable, Equatable, Codable {
        /// The route's name, or its signature when it has none.
        public let route: String
        /// The method and pattern: `GET /api/{key}/conditions/q/CA/{city}.json`.
        public let signature: String
        /// Requests of the session it answered.
        public let hits: Int
        /// Where it is defined: `stubd.yml:42`, a stub file's path, or `runtime stub s3`.
        public let source: String
        /// A route's hits as given.
        public init(route: String, signature: String, hits: Int, source: String) {
            self.route = route; self.signature = signature; self.hits = hits; self.source = source
        }
    }

    /// The session counted; `""` for the default one.
    public let session: String
    /// The catalog's routes, then the session's runtime stubs.
    public let routes: [RouteHits]
    /// `GET /api/KEY/x.json` → hits.
    public let paths: [String: Int]
    /// Requests of the session that matched no route (the journal says why each missed).
    public let unmatched: Int
    /// Each quota and how its keys stand: the first page of `GET /__stubd/quotas`.
    public let quotas: [QuotasReport.Quota]
    /// Requests passed on to the real API (`serve --proxy`), `GET /data/2.5/weather` → count; they
    /// are in `paths` too.
    public let forwarded: [String: Int]

    /// A report as given.
    public init(session: String, routes: [RouteHits], paths: [String: Int], unmatched: Int, quotas: [QuotasReport.Quota],
                forwarded: [String: Int] = [:]) {
        self.session = session; self.routes = routes; self.paths = paths; self.unmatched = unmatched; self.quotas = quotas
        self.forwarded = forwarded
    }
}
