// In-process figures that wrk cannot give: the core's cost per request, and the in-process
// fixture's start + one request + stop cycle. Run: swift run -c release stubd-bench [Benchmarks/Stubs]
import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let stubs = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Benchmarks/Stubs")

/// STUBD_BENCH_URLPROTOCOL_ONLY=1: only the URLProtocol round trips (issue 60), then exit.
if ProcessInfo.processInfo.environment["STUBD_BENCH_URLPROTOCOL_ONLY"] != nil {
    try await URLProtocolRoundTrip.run(stubs: stubs)
    exit(0)
}

/// STUBD_BENCH_FIXTURE_ONLY=1: only the fixture cycles (section 2), for profiling them.
let fixtureOnly = ProcessInfo.processInfo.environment["STUBD_BENCH_FIXTURE_ONLY"] != nil

// 0. Contract checking (issue 26): one ~1 KB weather answer against its OpenAPI 3.0 schema, compiled
// once. STUBD_BENCH_SCHEMA_ONLY=1 runs only this.
if !fixtureOnly {
    let spec = try JSONParser.parse(#"""
    {"openapi": "3.0.3", "components": {"schemas": {
      "Coord": {"type": "object", "required": ["lon", "lat"], "properties": {
        "lon": {"type": "number", "minimum": -180, "maximum": 180}, "lat": {"type": "number", "minimum": -90, "maximum": 90}}},
      "Condition": {"type": "object", "required": ["id", "main", "description", "icon"], "additionalProperties": false, "properties": {
        "id": {"type": "integer", "format": "int32"}, "main": {"type": "string", "enum": ["Thunderstorm", "Drizzle", "Rain", "Snow", "Clear", "Clouds", "Mist"]},
        "description": {"type": "string", "maxLength": 100}, "icon": {"type": "string", "pattern": "^[0-9]{2}[dn]$"}}},
      "Weather": {"type": "object", "required": ["coord", "weather", "main", "dt", "sys", "id", "name", "cod"], "properties": {
        "coord": {"$ref": "#/components/schemas/Coord"},
        "weather": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/Condition"}},
        "base": {"type": "string"},
        "main": {"type": "object", "required": ["temp", "pressure", "humidity"], "properties": {
          "temp": {"type": "number"}, "feels_like": {"type": "number"}, "temp_min": {"type": "number"}, "temp_max": {"type": "number"},
          "pressure": {"type": "integer", "minimum": 0}, "humidity": {"type": "integer", "minimum": 0, "maximum": 100},
          "sea_level": {"type": "integer"}, "grnd_level": {"type": "integer"}}},
        "visibility": {"type": "integer", "maximum": 10000},
        "wind": {"type": "object", "properties": {"speed": {"type": "number", "minimum": 0}, "deg": {"type": "integer", "minimum": 0, "maximum": 360},
          "gust": {"type": "number", "minimum": 0}}},
        "rain": {"type": "object", "nullable": true, "properties": {"1h": {"type": "number", "minimum": 0}}},
        "clouds": {"type": "object", "properties": {"all": {"type": "integer", "minimum": 0, "maximum": 100}}},
        "dt": {"type": "integer", "format": "int64"},
        "sys": {"type": "object", "properties": {"type": {"type": "integer"}, "id": {"type": "integer"},
          "country": {"type": "string", "minLength": 2, "maxLength": 2}, "sunrise": {"type": "integer"}, "sunset": {"type": "integer"}}},
        "timezone": {"type": "integer", "multipleOf": 900},
        "id": {"type": "integer"}, "name": {"type": "string"}, "cod": {"type": "integer", "enum": [200]},
        "observed": {"type": "string", "format": "date-time"}}}}}}
    """#)
    let answer = try JSONParser.parse(#"""
    {"coord": {"lon": 7.367, "lat": 45.133}, "weather": [{"id": 501, "main": "Rain", "description": "moderate rain", "icon": "10d"}],
     "base": "stations", "main": {"temp": 284.2, "feels_like": 282.93, "temp_min": 283.06, "temp_max": 286.82, "pressure": 1021,
     "humidity": 60, "sea_level": 1021, "grnd_level": 910}, "visibility": 10000, "wind": {"speed": 4.09, "deg": 121, "gust": 3.47},
     "rain": {"1h": 2.73}, "clouds": {"all": 83}, "dt": 1726660758, "sys": {"type": 1, "id": 6736, "country": "IT",
     "sunrise": 1726636384, "sunset": 1726680975}, "timezone": 7200, "id": 3165523, "name": "Province of Turin", "cod": 200,
     "observed": "2024-09-18T11:59:18Z"}
    """#)
    let compileStart = DispatchTime.now().uptimeNanoseconds
    let schema = try SchemaCompiler(document: spec, dialect: .openAPI30).schema(at: "#/components/schemas/Weather")
    let compileMicroseconds = Double(DispatchTime.now().uptimeNanoseconds - compileStart) / 1e3
    precondition(schema.validate(answer).isEmpty, "the benchmark's answer must be valid: \(schema.validate(answer))")
    let runs = (0..<5).map { _ in
        let n = 20_000
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<n { precondition(schema.validate(answer).isEmpty) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
    }
    print(String(format: "contract: a %d-byte weather answer against its schema: median %.2f µs per validation (5 × 20k; compile %.0f µs once)",
                 answer.serialized.utf8.count, median(runs) / 1000, compileMicroseconds))
    if ProcessInfo.processInfo.environment["STUBD_BENCH_SCHEMA_ONLY"] != nil { exit(0) }
}

// 1. The core alone: match, count, journal, per request.
if !fixtureOnly {
    let engine = StubEngine(catalog: try StubCatalog.load(stubs: stubs))
    let hostHeader = HTTPFields([HTTPField(name: HTTPField.Name("Host")!, value: "127.0.0.1:8080")])
    let request = RequestHead(method: .get, path: "/bench/payload.json", headers: hostHeader)
    let session = engine.defaultSession
    /// Median nanoseconds per call over 5 runs of 200k calls.
    func nanosecondsPerRequest(_ request: RequestHead) -> Double {
        median((0..<5).map { _ in
            let n = 200_000
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { _ = engine.respond(to: request, in: session) }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
        })
    }
    print(String(format: "core: engine.respond on a literal route: median %.0f ns per request (5 × 200k)", nanosecondsPerRequest(request)))
    let quotaRequest = RequestHead(method: .get, path: "/bench/quota/payload.json", headers: hostHeader)
    let quotaNanoseconds = nanosecondsPerRequest(quotaRequest)
    print(String(format: "core: the same file behind a quota with IETF headers: median %.0f ns per request", quotaNanoseconds))
}

// STUBD_BENCH_CORE_ONLY=1: just the loops above, for profiling them.
if ProcessInfo.processInfo.environment["STUBD_BENCH_CORE_ONLY"] != nil { exit(0) }

// 1b. Where a fixture cycle goes.
if !fixtureOnly {
    func ms(_ f: () throws -> Void) rethrows -> Double {
        let t = DispatchTime.now().uptimeNanoseconds; try f(); return Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
    }
    var load: [Double] = [], start: [Double] = [], stop: [Double] = []
    for _ in 0..<50 {
        load.append(try ms { _ = try StubCatalog.load(stubs: stubs) })
        var server: StubServer?
        start.append(try ms { server = try StubServer(stubs: stubs) })
        stop.append(ms { server!.stopSynchronously() })
    }
    print(String(format: "fixture parts: catalog load %.2f ms, start (incl. load) %.2f ms, stop %.2f ms (medians of 50)",
                 median(load), median(start), median(stop)))
}

// 1c. A big folder: 10,000 stub files, loaded cold (not from the cache) and then matched.
if !fixtureOnly {
    let big = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-bench-10k-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: big) }
    for i in 0..<10_000 {
        let dir = big.appendingPathComponent("api/v1/items/\(i / 100)")
        if i % 100 == 0 { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        try Data(#"{"id": \#(i), "name": "item \#(i)", "tags": ["a", "b"], "price": \#(Double(i) / 100)}"#.utf8)
            .write(to: dir.appendingPathComponent("\(i).json"))
    }
    let t = DispatchTime.now().uptimeNanoseconds
    let catalog = try StubCatalog.load(stubs: big)
    let loadMs = Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
    let engine = StubEngine(catalog: catalog)
    let request = RequestHead(method: .get, path: "/api/v1/items/57/5799.json")
    let m = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<100_000 { _ = engine.respond(to: request, in: engine.defaultSession) }
    let perRequest = Double(DispatchTime.now().uptimeNanoseconds - m) / 1e5
    print(String(format: "10,000 stub files: cold load %.0f ms (%d routes); engine.respond %.0f ns per request", loadMs, catalog.routes.count, perRequest))
}

// 1d. Patterned routes shaped like the weather example (`api/{key}/conditions/q/CA/City_N.json`):
// the core's cost per request at 10, 100 and 10,000 of them, and of a miss with its nearest routes.
if !fixtureOnly {
    func folder(_ count: Int) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-bench-patterned-\(count)-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("api/{key}/conditions/q/CA")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<count {
            try Data(#"{"current_observation": {"temp_f": 76.5, "city": "City \#(i)"}}"#.utf8).write(to: dir.appendingPathComponent("City_\(i).json"))
        }
        return root
    }
    func nanoseconds(_ engine: StubEngine, _ path: String, calls: Int) -> Double {
        let request = RequestHead(method: .get, path: path)
        return median((0..<5).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls { _ = engine.respond(to: request, in: engine.defaultSession) }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls)
        })
    }
    var hit: [Int: Double] = [:], miss: [Int: Double] = [:]
    for count in [10, 100, 10_000] {
        let root = try folder(count)
        defer { try? FileManager.default.removeItem(at: root) }
        let engine = StubEngine(catalog: try StubCatalog.load(stubs: root))
        hit[count] = nanoseconds(engine, "/api/KEY/conditions/q/CA/City_\(count - 1).json", calls: 100_000)
        miss[count] = nanoseconds(engine, "/api/KEY/conditions/q/CA/Citty_\(count / 2).json", calls: 2_000)
    }
    for count in [10, 100, 10_000] {
        print(String(format: "patterned routes ×%d: engine.respond %.0f ns (%.2f× of ×10); a miss with its nearest routes %.1f µs",
                     count, hit[count]!, hit[10]! / hit[count]!, miss[count]! / 1000))
    }
}

// 1f. GraphQL operations by the thousand (issue 63's bar): one endpoint, 1,000 operations' files
// (`graphql/Op_N.graphql.json`), asked the way Apollo asks (POST, JSON body with operationName and
// query), against 1,000 path routes asked with GET. Both through `engine.respond`, so the GraphQL
// figure includes reading its body, which a path route does not have. STUBD_BENCH_GRAPHQL_ONLY=1
// runs only this.
if !fixtureOnly {
    func folder(_ count: Int, graphQL: Bool) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-bench-ops-\(count)-\(UUID().uuidString)")
        let dir = root.appendingPathComponent(graphQL ? "graphql" : "items")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<count {
            let name = graphQL ? "Op\(i).graphql.json" : "Op\(i).json"
            try Data(#"{"data": {"item": {"id": "\#(i)", "name": "item \#(i)"}}}"#.utf8).write(to: dir.appendingPathComponent(name))
        }
        return root
    }
    func nanoseconds(_ engine: StubEngine, _ request: RequestHead) -> Double {
        precondition(engine.respond(to: request, in: engine.defaultSession).route != nil, "the benchmark's request must match")
        return median((0..<5).map { _ in
            let calls = 50_000
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls { _ = engine.respond(to: request, in: engine.defaultSession) }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls)
        })
    }
    let json = HTTPFields([HTTPField(name: .contentType, value: "application/json")])
    var perOperation: [Int: Double] = [:], perPath: [Int: Double] = [:]
    for count in [10, 1_000] {
        let ops = try folder(count, graphQL: true), paths = try folder(count, graphQL: false)
        defer { try? FileManager.default.removeItem(at: ops); try? FileManager.default.removeItem(at: paths) }
        let last = count - 1
        let body = Data(#"{"operationName": "Op\#(last)", "query": "query Op\#(last) { item { id name } }", "variables": {}}"#.utf8)
        perOperation[count] = nanoseconds(StubEngine(catalog: try StubCatalog.load(stubs: ops)),
                                          RequestHead(method: .post, path: "/graphql", headers: json, body: body))
        perPath[count] = nanoseconds(StubEngine(catalog: try StubCatalog.load(stubs: paths)), RequestHead(method: .get, path: "/items/Op\(last).json"))
    }
    let request = RequestHead(method: .post, path: "/graphql", headers: json,
                              body: Data(#"{"operationName": "Op999", "query": "query Op999 { item { id name } }", "variables": {}}"#.utf8))
    let readStart = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<50_000 { _ = GraphQLRequest.read(request) }
    let read = Double(DispatchTime.now().uptimeNanoseconds - readStart) / 50_000
    func each(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<50_000 { body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 50_000
    }
    let jsonOnly = each { _ = try? JSONParser.parse(request.body) }
    let documentOnly = each { _ = try? GraphQLDocument(parsing: "query Op999 { item { id name } }") }
    print(String(format: "graphql parts: JSON body %.0f ns, the query's document %.0f ns", jsonOnly, documentOnly))
    print(String(format: "graphql: engine.respond on one of 1,000 operations %.0f ns, one of 1,000 path routes %.0f ns (%.2f×); "
                 + "of 10: %.0f / %.0f ns; the body read alone %.0f ns", perOperation[1_000]!, perPath[1_000]!,
                 perOperation[1_000]! / perPath[1_000]!, perOperation[10]!, perPath[10]!, read))
    if ProcessInfo.processInfo.environment["STUBD_BENCH_GRAPHQL_ONLY"] != nil { exit(0) }
}

// 1e. Adding a runtime stub to a session that holds 1, 1,000 or 30,000 already: the cost of one add.
if !fixtureOnly {
    let admin = AdminEndpoints(engine: StubEngine(catalog: try StubCatalog.load(stubs: stubs)), maxRuntimeStubs: 40_000)
    let session = admin.sessions.session("runtime-bench")
    var perAdd: [Int: Double] = [:]
    var added = 0
    for target in [1, 1_000, 30_000] {
        while added < target {
            _ = try admin.addRuntimeStub(json: #"{"request": {"path": "/rt/\#(added)/{id}"}, "response": {"status": 204}}"#, to: session)
            added += 1
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<200 {
            _ = try admin.addRuntimeStub(json: #"{"request": {"path": "/rt/\#(added)/{id}"}, "response": {"status": 204}}"#, to: session)
            added += 1
        }
        perAdd[target] = Double(DispatchTime.now().uptimeNanoseconds - start) / 200 / 1000
    }
    print(String(format: "runtime stubs: one add with 1 held %.1f µs, with 1,000 %.1f µs, with 30,000 %.1f µs (%.2f× of 1)",
                 perAdd[1]!, perAdd[1_000]!, perAdd[30_000]!, perAdd[30_000]! / perAdd[1]!))
}

// 2. The in-process fixture: start on port 0, one GET, stop.
let cycles = Int(ProcessInfo.processInfo.environment["STUBD_BENCH_CYCLES"] ?? "") ?? 100
var times: [Double] = []
let session = URLSession(configuration: .ephemeral)
for _ in 0..<cycles {
    let start = DispatchTime.now().uptimeNanoseconds
    let server = try await StubServer.start(stubs: stubs)
    let (_, response) = try await session.data(from: server.baseURL.appendingPathComponent("bench/payload.json"))
    precondition((response as? HTTPURLResponse)?.statusCode == 200)
    await server.stop()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
print(String(format: "fixture: start + one request + stop: median %.2f ms, p90 %.2f ms (%d cycles)",
             median(times), times.sorted()[cycles * 9 / 10], cycles))

// 2b. The same cycle with the request made on a plain socket: what the server's side costs, without
// URLSession's own set-up of a new connection (corelibs' URLSession runs each task through libcurl).
#if canImport(Glibc)
/// One HTTP/1.1 GET on a new loopback connection; returns the status line's code.
func rawGet(port: UInt16, path: String) -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return 0 }
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), 0) }
    var reply = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        reply.append(contentsOf: buffer[0..<n])
    }
    let statusLine = String(decoding: reply.prefix(12), as: UTF8.self)
    return Int(statusLine.dropFirst(9).prefix(3)) ?? 0
}
var rawTimes: [Double] = []
for _ in 0..<cycles {
    let start = DispatchTime.now().uptimeNanoseconds
    let server = try await StubServer.start(stubs: stubs)
    precondition(rawGet(port: UInt16(server.baseURL.port!), path: "/bench/payload.json") == 200)
    await server.stop()
    rawTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
print(String(format: "fixture, request on a plain socket: start + one request + stop: median %.2f ms, p90 %.2f ms (%d cycles)",
             median(rawTimes), rawTimes.sorted()[cycles * 9 / 10], cycles))
#endif
