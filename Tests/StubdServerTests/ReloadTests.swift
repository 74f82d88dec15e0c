import Foundation
import Stubd
import StubdProtocol
import StubdTestSupport
import Synchronization
import StubdClient
import Testing

@Suite struct ReloadTests {
    func watching() -> StubServer.Options {
        var options = StubServer.Options()
        options.watch = true
        return options
    }

    @Test func anEditIsServedWithinASecond() async throws {
        let stubs = try TempStubs(["a.json": #"{"v": 1}"#])
        try await withServer(stubs.url, options: watching()) { server in
            #expect(try await get(server.baseURL, "/a.json").text == #"{"v": 1}"#)
            let edited = Date()
            try stubs.write("a.json", #"{"v": 2}"#)
            let served = try await eventually(within: 1) { try await get(server.baseURL, "/a.json").text == #"{"v": 2}"# }
            #expect(served, "edit not served after \(Date().timeIntervalSince(edited)) s")
            try stubs.write("b/new.json", #"{"new": true}"#)
            #expect(try await eventually(within: 1) { try await get(server.baseURL, "/b/new.json").status == 200 })
        }
    }

    /// A file written 20 times a second never leaves a quiet period; reloads still come (issue 11).
    @Test func continuousWritesStillReloadAtLeastOnceASecond() async throws {
        let stubs = try TempStubs(["a.json": #"{"v": 0}"#, "busy.txt": "0"])
        try await withServer(stubs.url, options: watching()) { server in
            let writer = Task.detached {
                var i = 0
                while !Task.isCancelled {
                    i += 1
                    try? stubs.write("busy.txt", "\(i)")
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            defer { writer.cancel() }
            try await Task.sleep(for: .milliseconds(200))
            try stubs.write("a.json", #"{"v": 1}"#)
            let served = try await eventually(within: 2.5) { try await get(server.baseURL, "/a.json").text == #"{"v": 1}"# }
            #expect(served, "no reload while another file kept changing")
        }
    }

    @Test func aBrokenEditKeepsTheLastGoodCatalogAndSaysWhy() async throws {
        let stubs = try TempStubs(["a.json": #"{"v": 1}"#])
        let failures = Locked<[String]>([])
        var options = watching()
        options.reloadLog = { result in if case .failure(let e) = result { failures.withLock { $0.append(e.description) } } }
        try await withServer(stubs.url, options: options) { server in
            try stubs.write("a.json", "{\"v\": 2,,}")
            #expect(await eventually(within: 2) { !failures.withLock { $0.isEmpty } })
            #expect(failures.withLock { $0.first?.contains("a.json:1:9: invalid JSON") } == true, "\(failures.withLock { $0 })")
            #expect(try await get(server.baseURL, "/a.json").text == #"{"v": 1}"#)
        }
    }

    @Test func hitsOfUnchangedRoutesSurviveAReload() async throws {
        let stubs = try TempStubs(["a.json": "{}", "b.json": "{}"])
        try await withServer(stubs.url, options: watching()) { server in
            for _ in 0..<3 { _ = try await get(server.baseURL, "/a.json") }
            try stubs.write("c.json", "{}")
            #expect(try await eventually(within: 2) { try await get(server.baseURL, "/c.json").status == 200 })
            #expect(try await server.hits("GET /a.json") == 3)
        }
    }

    /// 7 reloads while clients keep asking: every answer is whole, from the old catalog or the new.
    @Test func reloadsUnderLoadLoseAndTearNoRequest() async throws {
        let stubs = try TempStubs(["a.json": #"{"generation": 0, "padding": "\#(String(repeating: "x", count: 2000))"}"#])
        let server = try StubServer(stubs: stubs.url)
        defer { server.stopSynchronously() }
        let url = URL(string: server.baseURL.absoluteString + "/a.json")!
        let stop = StopFlag()
        async let answers: [HTTPResult] = withThrowingTaskGroup(of: [HTTPResult].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var seen: [HTTPResult] = []
                    while !stop.value.load(ordering: .relaxed) { seen.append(try await http(url)) }
                    return seen
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        for generation in 1...7 {
            try stubs.write("a.json", #"{"generation": \#(generation), "padding": "\#(String(repeating: "y", count: 2000 + generation))"}"#)
            try server.reload()
            try await Task.sleep(for: .milliseconds(30))
        }
        stop.value.store(true, ordering: .relaxed)
        let all = try await answers
        #expect(all.count > 50)
        for answer in all {
            #expect(answer.status == 200)
            let generation = (answer.json["generation"] as? NSNumber)?.intValue ?? -1
            let padding = answer.json["padding"] as? String ?? ""
            #expect(padding.count == (generation == 0 ? 2000 : 2000 + generation), "torn answer: \(answer.text.prefix(40))")
        }
        #expect(server.engine.catalog.routes.count == 1)
    }
}
