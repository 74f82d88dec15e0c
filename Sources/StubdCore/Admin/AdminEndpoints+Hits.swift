import Foundation
import HTTPTypes
import StubdProtocol
import Synchronization
import StubdEngine

/// `GET /__stubd/hits` and `hits/wait`: counts of the session's routes and paths, and the long-poll
/// the transport holds until a count is reached.
extension AdminEndpoints {
    /// The answer to a finished long-poll: 200 when the count was reached, 408 with the count so far.
    func hitsWaitResult(session: SessionState, query: RouteQuery, count: Int) -> GeneratedResponse {
        let hits = session.hits(for: query)
        return .document(hits >= count ? 200 : 408, HitWait(route: query.text, hits: hits, expected: count,
                                                            unmatched: session.unmatched.load(ordering: .relaxed)))
    }

    /// `hits/wait` held: until `session` has `count` hits on `query` (a waiter a hit fires), or `timeout` seconds pass.
    func waitForHits(session: SessionState, query: RouteQuery, count: Int, timeout: Double) -> AdminHold {
        AdminHold(timeout: timeout,
                  register: { fire in session.waiters.add(query: query, count: count, current: { session.hits(for: query) }, fire: fire) },
                  cancel: { session.waiters.remove($0) },
                  answer: { [self] in hitsWaitResult(session: session, query: query, count: count) })
    }

    /// Every route's and path's hits in `session` (`GET /__stubd/hits` without `?route=`).
    func hitsReport(_ session: SessionState) -> GeneratedResponse {
        let counts = session.routeCounts()
        let routes = catalog.routes.map { r in
            HitsReport.RouteHits(route: r.key, signature: r.signature, hits: counts[r.key] ?? 0, source: r.source.description)
        } + session.runtimeStubs().map { entry in
            HitsReport.RouteHits(route: entry.route.key, signature: entry.route.signature,
                                 hits: session.counter(for: entry.route).count, source: entry.route.source.description)
        }
        return .document(200, HitsReport(session: session.id, routes: routes, paths: session.allPathCounts(),
                                         unmatched: session.unmatched.load(ordering: .relaxed), quotas: quotasReport(session).quotas,
                                         forwarded: session.allForwardedCounts()))
    }

    /// The 400 for a `?route=` that reads as a method and a path but is neither, naming it.
    func badReference(_ error: RouteReferenceError) -> GeneratedResponse {
        .problem(400, title: "Bad route reference", detail: error.description
                     + " (a route name, a signature such as 'GET /api/{key}/**', or a concrete path such as 'GET /api/KEY/x.json')")
    }

    /// The 404 for a hit target that names nothing in `session` (its catalog and runtime stubs); nil when it names something.
    func unknownHitTarget(_ query: RouteQuery, in session: SessionState) -> GeneratedResponse? {
        let routes = catalog.routes + session.runtimeStubs().map(\.route)
        guard let nearest = HitTarget(query: query).nearestIfUnknown(in: routes) else { return nil }
        let target = query.text
        let hint = nearest.isEmpty ? "the catalog has no routes" : "nearest: " + nearest.map { "'\($0)'" }.joined(separator: ", ")
        return .problem(Problem(title: Problem.noSuchRoute, status: 404,
                                detail: "'\(target)' names no route in this session's catalog (a route name, a signature such as "
                                    + "'GET /api/{key}/**', or a concrete path one route matches); \(hint)",
                                nearest: nearest))
    }
}
