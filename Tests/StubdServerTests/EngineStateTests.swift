import Foundation
import Stubd
import StubdClient
import StubdCore
import StubdEngine
import StubdTestSupport
import Synchronization
import Testing

/// The catalog is immutable and shared; what changes at run time belongs to sessions; a replaced
/// catalog is freed. Through the real server, over real sockets (how sessions count across a reload,
/// with no socket: SessionHitsAcrossReloadTests in StubdCoreTests).
@Suite struct EngineStateTests {
    /// Runtime stubs are added and removed while eight clients keep requesting: every answer is
    /// whole, either the file's or the runtime stub's, and no request fails.
    @Test func runtimeStubsComeAndGoWhileEightClientsMatch() async throws {
        let stubs = try TempStubs(["items/{id}.json": #"{"from": "file"}"#])
        try await withServer(stubs.url) { server in
            let stop = StopFlag()
            async let answers: [HTTPResult] = withThrowingTaskGroup(of: [HTTPResult].self) { group in
                for client in 0..<8 {
                    group.addTask {
                        var seen: [HTTPResult] = []
                        var n = 0
                        while !stop.value.load(ordering: .relaxed) {
                            seen.append(try await get(server.baseURL, "/items/\(client * 1000 + n % 50).json"))
                            n += 1
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            var live: [String] = []
            for round in 0..<200 {
                live.append(try await server.addStub(StubRoute(.get("/items/{id}.json"), response: .json(#"{"from": "runtime \#(round)"}"#))))
                if live.count > 3 { try await server.removeStub(id: live.removeFirst()) }
            }
            for id in live { try await server.removeStub(id: id) }
            stop.value.store(true, ordering: .relaxed)
            let all = try await answers
            #expect(all.count > 100)
            for answer in all {
                #expect(answer.status == 200, "\(answer.text.prefix(120))")
                let from = answer.json["from"] as? String ?? ""
                #expect(from == "file" || from.hasPrefix("runtime "), "torn or wrong answer: \(answer.text.prefix(80))")
            }
            #expect(try await get(server.baseURL, "/items/1.json").json["from"] as? String == "file")
        }
    }

    /// A reload publishes a new catalog; the one it replaced is freed once nothing uses it.
    @Test func aReplacedCatalogIsFreed() async throws {
        let stubs = try TempStubs(["a.json": #"{"v": 0}"#])
        try await withServer(stubs.url) { server in
            weak let first = server.engine.catalog
            #expect(first != nil)
            #expect(try await get(server.baseURL, "/a.json").json["v"] as? Int == 0)
            for v in 1...3 {
                try stubs.write("a.json", #"{"v": \#(v)}"#)
                try server.reload()
                #expect(try await get(server.baseURL, "/a.json").json["v"] as? Int == v)
            }
            #expect(first == nil, "the first catalog is still held after three reloads")
        }
    }
}
