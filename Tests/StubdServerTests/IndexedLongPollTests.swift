import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdTestSupport
import Synchronization
import Testing

/// Long-polls are indexed by their target (issue 11): each still fires exactly when its count is reached.
@Suite struct IndexedLongPollTests {
    @Test func manyPendingWaitsOnPatternsPathsAndNamesEachFireAtTheirCount() async throws {
        raiseDescriptorLimit()
        try await withServer(exampleStubs) { server in
            // A pattern over everything, the path hit, a pattern covering its route, and a route by
            // name (london) that no request reaches.
            let targets = ["GET%20/**", "GET%20/api/KEY/conditions/q/CA/San_Francisco.json",
                           "london", "GET%20/api/%7Bkey%7D/conditions/q/CA/%7Bcity%7D.json"]
            var polls: [(fd: Int32, target: String, count: Int)] = []
            for i in 0..<200 {
                let target = targets[i % targets.count]
                let count = 1 + i % 5
                let fds = openConnections(port: server.port, count: 1,
                                          sending: "GET /__stubd/hits/wait?route=\(target)&count=\(count)&timeout=30 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                polls.append((fds[0], target, count))
            }
            // Every poll is pending before the first hit (a sleep here once let a slow machine send
            // the hits first, and the test passed on answers given at once).
            let session = server.engine.defaultSession
            let expected = polls.count
            let registered = await eventually(within: bound(10)) { session.pendingWaits == expected }
            #expect(registered, "\(session.pendingWaits) of \(expected) long-polls registered")
            // Three hits on San Francisco (its key's quota allows 10 a minute).
            for _ in 0..<3 {
                let status = try await get(server.baseURL, "/api/KEY/conditions/q/CA/San_Francisco.json").status
                #expect(status == 200)
            }
            // Waits for up to 3 on the path, or on a pattern covering it, answer 200 now; the rest
            // (more than 3, or london, which had no hit) are still pending.
            for poll in polls {
                let reachable = poll.target == "london" ? 0 : 3
                var buffer = [UInt8](repeating: 0, count: 4096)
                if poll.count <= reachable {
                    var tv = timeval(tv_sec: 3, tv_usec: 0)
                    setsockopt(poll.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                    let n = recv(poll.fd, &buffer, buffer.count, 0)
                    let reply = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
                    #expect(reply.hasPrefix("HTTP/1.1 200"), "\(poll.target) count \(poll.count): \(reply.prefix(40))")
                } else {
                    let n = recv(poll.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    #expect(n < 0, "\(poll.target) count \(poll.count) answered early: \(String(decoding: buffer[0..<max(0, n)], as: UTF8.self).prefix(40))")
                }
                close(poll.fd)
            }
        }
    }
}
