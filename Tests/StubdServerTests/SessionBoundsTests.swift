import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import Synchronization
import Testing

/// Any request naming a new session makes one (issue 11): they must be cheap, bounded and checked.
@Suite(.serialized) struct SessionBoundsTests {
    @Test(arguments: ["../../etc%20passwd%0A", "a%20b", String(repeating: "x", count: 65)])
    func aBadSessionIdIsRefusedWhateverCarriesIt(id: String) async throws {
        try await withServer(exampleStubs) { server in
            let viaQuery = try await get(server.baseURL, "/__stubd/health?session=\(id)")
            #expect(viaQuery.status == 400, "?session=\(id) → \(viaQuery.status)")
            #expect(viaQuery.text.contains("a session id is 1–64 letters"))
            let viaPrefix = try await get(server.baseURL, "/__s/\(id)/bench/payload.json")
            #expect((400..<500).contains(viaPrefix.status))
            #expect(server.engine.sessionCount == 0)
        }
    }

    @Test func sessionsPastTheCapEvictTheOneUnusedLongest() async throws {
        let notices = Locked<[String]>([])
        var options = StubServer.Options()
        options.maxSessions = 20
        options.notice = { message in notices.withLock { $0.append(message) } }
        try await withServer(exampleStubs, options: options) { server in
            for i in 0..<50 {
                let r = try await get(server.baseURL, "/bench/payload.json", headers: ["X-Stubd-Session": "t\(i)"])
                #expect(r.status == 200)
                // t0 stays in use, so it is never the one evicted.
                _ = try await get(server.baseURL, "/__stubd/hits?session=t0")
            }
            #expect(server.engine.sessionCount == 20)
            let kept = try await get(server.baseURL, "/__stubd/hits?session=t0&route=GET%20/bench/payload.json")
            #expect(kept.text.contains("\"hits\":1"), "\(kept.text)")
            let messages = notices.withLock { $0 }
            #expect(messages.count == 30)
            #expect(messages.first?.contains("session 't1' evicted") == true, "\(messages.first ?? "")")
        }
    }

    /// 3,000 sessions, each made by one request, cost little; a global reset drops them all.
    @Test func threeThousandSessionsCostLittle() async throws {
        var options = StubServer.Options()
        options.maxSessions = 5000
        try await withServer(exampleStubs, options: options) { server in
            _ = try await get(server.baseURL, "/bench/payload.json", headers: ["X-Stubd-Session": "warm"])
            let before = residentBytes()
            for i in 0..<3000 {
                _ = try await get(server.baseURL, "/bench/payload.json", headers: ["X-Stubd-Session": "s\(i)"])
            }
            let grown = residentBytes() - before
            #expect(server.engine.sessionCount == 3001)
            #expect(Double(grown) < bound(100) * Double(1 << 20), "3,000 sessions grew RSS by \(grown >> 20) MB")
            print("3,000 sessions: RSS +\(grown >> 20) MB")
            let reset = try await http(URL(string: server.baseURL.absoluteString + "/__stubd/reset")!, method: "POST")
            #expect(reset.status == 200)
            #expect(server.engine.sessionCount == 0)
        }
    }
}

/// This process's resident memory, from /proc (Linux).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = Int(text.split(separator: " ")[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Long-polls are indexed by their target (issue 11): each still fires exactly when its count is reached.
@Suite struct IndexedLongPollTests {
    @Test func manyPendingWaitsOnPatternsPathsAndNamesEachFireAtTheirCount() async throws {
        raiseDescriptorLimit()
        try await withServer(exampleStubs) { server in
            let targets = ["GET%20/**", "GET%20/bench/payload.json", "GET%20/api/%7Bkey%7D/**", "GET%20/bench/%7Bfile%7D"]
            var polls: [(fd: Int32, target: String, count: Int)] = []
            for i in 0..<200 {
                let target = targets[i % targets.count]
                let count = 1 + i % 5
                let fds = openConnections(port: server.port, count: 1,
                                          sending: "GET /__stubd/hits/wait?route=\(target)&count=\(count)&timeout=30 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                polls.append((fds[0], target, count))
            }
            try await Task.sleep(for: .milliseconds(200))
            // Three hits on the payload: waits for up to 3 on it or on a pattern covering it answer 200.
            for _ in 0..<3 { #expect(try await get(server.baseURL, "/bench/payload.json").status == 200) }
            // Waits for up to 3 on the payload, or on a pattern covering it, answer 200 now; the rest
            // (more than 3, or the weather pattern, which had no hit) are still pending.
            for poll in polls {
                let reachable = poll.target.contains("api") ? 0 : 3
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

@Suite struct RuntimeStubCapTests {
    @Test func aSessionHoldsAtMostTheCapOfRuntimeStubs() async throws {
        var options = StubServer.Options()
        options.maxRuntimeStubs = 100
        try await withServer(exampleStubs, options: options) { server in
            let session = server.engine.session("cap")
            for i in 0..<100 {
                _ = try server.engine.addRuntimeStub(json: #"{"request": {"path": "/r\#(i)"}, "response": {"status": 200}}"#, to: session)
            }
            let r = try await http(URL(string: server.baseURL.absoluteString + "/__s/cap/__stubd/stubs")!, method: "POST",
                                   body: #"{"request": {"path": "/one-more"}, "response": {"status": 200}}"#)
            #expect(r.status == 400)
            #expect(r.text.contains("already holds 100 runtime stubs"), "\(r.text)")
            #expect(try await get(server.baseURL, "/__s/cap/r99").status == 200)
        }
    }
}
