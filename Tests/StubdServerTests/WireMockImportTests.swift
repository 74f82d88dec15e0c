import Foundation
import StubdTestSupport
import Testing

/// `stubd import wiremock` on WireMock's own mapping files (Fixtures/WireMock, provenance in its
/// README): the folder written passes `stubd check`, and `stubd serve` on it gives a client the
/// statuses and bodies the mappings declare.
/// Bad mappings, refused with no server: WireMockImportRefusalTests.
@Suite struct WireMockImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/WireMock")

    static func importMappings(_ input: URL, _ dir: URL, _ extra: [String] = []) throws -> (status: Int32, output: String, error: String) {
        try run(stubdBinary.path, ["import", "wiremock", input.path, "--stubs", dir.path] + extra)
    }

    static func freshFolder() throws -> URL { try TempStubs([:]).url.appendingPathComponent("Stubs") }

    /// A request through curl: status, headers (lower-case names), body, seconds taken.
    static func request(_ method: String, _ url: String, headers: [String] = [], body: String? = nil)
        throws -> (status: Int, headers: [String: String], body: Data, seconds: Double) {
        var arguments = ["-s", "--max-time", "5", "-X", method, "-D", "-"]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent("wiremock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        arguments += ["-o", bodyFile.path, url]
        let started = Date()
        let result = try run("/usr/bin/curl", arguments)
        let seconds = Date().timeIntervalSince(started)
        var status = 0
        var fields: [String: String] = [:]
        for line in result.output.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") { status = Int(line.split(separator: " ")[1]) ?? 0; continue }
            if let colon = line.firstIndex(of: ":") {
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return (status, fields, (try? Data(contentsOf: bodyFile)) ?? Data(), seconds)
    }

    /// Each mapping of `root/mappings` the way the test reads it (not through stubd's code): file, method, URL, status and the body it declares.
    static func declared(_ root: URL) throws -> [(file: String, method: String, url: String, status: Int, body: Data, json: Bool, delay: Double)] {
        var out: [(String, String, String, Int, Data, Bool, Double)] = []
        let mappings = root.appendingPathComponent("mappings")
        for case let file as URL in FileManager.default.enumerator(at: mappings, includingPropertiesForKeys: nil)! where file.pathExtension == "json" {
            let top = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            for mapping in (top["mappings"] as? [[String: Any]]) ?? [top] where mapping["scenarioName"] == nil {
                let request = mapping["request"] as! [String: Any], response = mapping["response"] as! [String: Any]
                let url = (request["url"] ?? request["urlPath"] ?? request["urlPattern"]) as! String
                var body = Data(), json = false
                if let text = response["body"] as? String { body = Data(text.utf8) }
                if let value = response["jsonBody"] { body = try JSONSerialization.data(withJSONObject: value); json = true }
                if let name = response["bodyFileName"] as? String { body = try Data(contentsOf: root.appendingPathComponent("__files/" + name)) }
                let delay = (response["fixedDelayMilliseconds"] as? Double ?? 0) / 1000
                out.append((file.lastPathComponent, request["method"] as? String ?? "GET", url, response["status"] as? Int ?? 200, body, json, delay))
            }
        }
        return out
    }

    /// The folder was not made, or holds no file.
    static func nothingIn(_ dir: URL) throws -> Bool {
        try !FileManager.default.fileExists(atPath: dir.path) || HARImportTests.contents(dir).isEmpty
    }

    static func sameJSON(_ a: Data, _ b: Data) -> Bool {
        guard let x = try? JSONSerialization.jsonObject(with: a), let y = try? JSONSerialization.jsonObject(with: b) else { return false }
        return NSDictionary(dictionary: ["v": x]).isEqual(to: ["v": y])
    }

    @Test(arguments: ["remoteloader", "classpath-filesource", "test-file-root", "sample-war", "docker-hello/stubs"])
    func wireMocksOwnMappingsServedGiveTheDeclaredAnswers(_ fixture: String) throws {
        let root = Self.fixtures.appendingPathComponent(fixture)
        let dir = try Self.freshFolder()
        let imported = try Self.importMappings(root, dir)
        #expect(imported.status == 0, "\(imported.output)\(imported.error)")
        #expect(imported.output.contains("the folder loads as stubd serve loads it"), "\(imported.output)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")

        let serve = try ServeProcess(["--stubs", dir.path])
        let expected = try Self.declared(root)
        #expect(!expected.isEmpty)
        for mapping in expected {
            let answer = try Self.request(mapping.method, serve.baseURL.absoluteString + mapping.url, headers: ["Accept: text/plain"])
            #expect(answer.status == mapping.status, "\(fixture)/\(mapping.file)")
            if mapping.json {
                #expect(Self.sameJSON(answer.body, mapping.body), "\(fixture)/\(mapping.file): \(String(decoding: answer.body, as: UTF8.self))")
            } else {
                #expect(answer.body == mapping.body, "\(fixture)/\(mapping.file): \(String(decoding: answer.body, as: UTF8.self).prefix(200))")
            }
            if mapping.delay > 0 { #expect(answer.seconds >= mapping.delay, "\(fixture)/\(mapping.file): fixedDelayMilliseconds kept") }
        }
        if fixture == "remoteloader" {
            // Every mapping comes over, the scenario's three onto stubd's scenarios (its name and
            // states written as words, which the table says).
            #expect(imported.output.contains("imported 9 of 9 mappings"), "\(imported.output)")
            #expect(imported.output.contains("5 whole, 4 in part, 0 already answered, 0 not imported"), "\(imported.output)")
            #expect(imported.output.contains("in part: scenario name or state 'To do list' is written 'To-do-list'"), "\(imported.output)")
            // The flow WireMock's test walks: the list, an item cancelled, the list again.
            let todo = serve.baseURL.absoluteString + "/todo/items"
            #expect(try Self.request("GET", todo).body == Data("<items><item>Buy milk</item></items>".utf8))
            #expect(try Self.request("POST", todo, body: "Cancel newspaper subscription").status == 201)
            let after = try Self.request("GET", todo)
            let cancelled = try Data(contentsOf: root.appendingPathComponent("__files/body.xml"))
            #expect(after.status == 200 && after.body == cancelled,
                    "\(String(decoding: after.body, as: UTF8.self))")
            #expect(imported.output.contains("in part: /request/headers/Accept: contains: not checked"), "\(imported.output)")
            let png = try Self.request("GET", serve.baseURL.absoluteString + "/image-file")
            #expect(png.headers["content-type"] == "image/png", "a body file is typed by its name, as WireMock types it")
            let jpg = try Self.request("GET", serve.baseURL.absoluteString + "/binary-file-from-header")
            #expect(jpg.headers["content-type"] == "image/jpg", "the mapping's own Content-Type wins")
            // WireMock's default method is any: so is the route's.
            #expect(try Self.request("DELETE", serve.baseURL.absoluteString + "/remote-load/1").status == 200)

            // Importing again changes no file.
            let before = try HARImportTests.contents(dir)
            let again = try Self.importMappings(root, dir)
            #expect(again.status == 0 && again.output.contains("0 whole, 0 in part, 9 already answered, 0 not imported"), "\(again.output)\(again.error)")
            #expect(try HARImportTests.contents(dir) == before)
        }
    }

    @Test func regexURLsBecomeStubdPathsAndOneThatCannotIsNamedWhileTheRestImport() throws {
        let dir = try Self.freshFolder()
        let imported = try Self.importMappings(Self.fixtures.appendingPathComponent("patterns"), dir)
        #expect(imported.status == 0, "\(imported.output)\(imported.error)")
        #expect(imported.output.contains("imported 5 of 6 mappings"), "\(imported.output)")
        #expect(imported.output.contains("NOT IMPORTED: mappings/orders.json:/mappings/3/request/urlPathPattern: '/api/v1/(orders|invoices)/export': its part '(orders|invoices)' is a regex a stubd path cannot say"),
                "\(imported.output)")
        #expect(imported.output.contains("in part: urlPathPattern: {p1} takes any one segment, not only [0-9]+"), "\(imported.output)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")

        let serve = try ServeProcess(["--stubs", dir.path])
        let base = serve.baseURL.absoluteString
        let order = try Self.request("GET", base + "/api/v1/orders/42")
        #expect(order.status == 200 && Self.sameJSON(order.body, Data(#"{"id": 7, "state": "shipped"}"#.utf8)), "\(String(decoding: order.body, as: UTF8.self))")
        let item = try Self.request("GET", base + "/api/v1/orders/42/items/A-1")
        #expect(item.status == 200 && item.body == Data("{\"item\": \"A-1\", \"qty\": 2}\n".utf8))
        let file = try Self.request("GET", base + "/static/css/app.css")
        #expect(file.status == 200 && file.body == Data("any static file".utf8))
        let created = try Self.request("POST", base + "/api/v1/orders?dryRun=true",
                                       headers: ["Content-Type: application/json", "X-Trace: 0123456789abcdef"], body: #"{"qty": 2, "sku": "A-1"}"#)
        #expect(created.status == 201 && created.body == Data(#"{"id": 8}"#.utf8) && created.headers["location"] == "/api/v1/orders/8",
                "\(created.status) \(String(decoding: created.body, as: UTF8.self))")
        #expect(created.seconds >= 0.04, "fixedDelayMilliseconds: 40")
        let otherBody = try Self.request("POST", base + "/api/v1/orders?dryRun=true", headers: ["Content-Type: application/json", "X-Trace: 1"], body: #"{"qty": 3}"#)
        #expect(otherBody.status != 201, "equalToJson is a condition")
        #expect(try Self.request("DELETE", base + "/api/v1/orders/9").status == 204)
    }

    @Test func faultsComeOverAsStubdFaultsOnTheWire() throws {
        let scratch = try TempStubs([:]).url
        let file = scratch.appendingPathComponent("faults.json")
        try Data("""
        {"mappings": [
          {"request": {"method": "GET", "url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}},
          {"request": {"method": "GET", "url": "/empty"}, "response": {"fault": "EMPTY_RESPONSE"}},
          {"request": {"method": "GET", "url": "/chunk"}, "response": {"status": 200, "fault": "MALFORMED_RESPONSE_CHUNK"}},
          {"request": {"method": "GET", "url": "/random"}, "response": {"fault": "RANDOM_DATA_THEN_CLOSE"}}
        ]}
        """.utf8).write(to: file)
        let dir = try Self.freshFolder()
        let imported = try Self.importMappings(file, dir)
        #expect(imported.status == 0, "\(imported.output)\(imported.error)")
        #expect(imported.output.contains("imported 4 of 4 mappings"), "\(imported.output)")
        #expect(imported.output.contains("in part: /response/fault: MALFORMED_RESPONSE_CHUNK served as truncated_body"), "\(imported.output)")
        // A user moving from WireMock expects it to come over: the nearest break, said "in part".
        #expect(imported.output.contains("in part: /response/fault: RANDOM_DATA_THEN_CLOSE served as empty_response"), "\(imported.output)")
        // A fault is a manifest route's `fault:`, never a convention file.
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        for fault in ["connection_reset", "empty_response", "truncated_body"] { #expect(manifest.contains("fault: \(fault)"), "\(manifest)") }
        #expect(manifest.components(separatedBy: "fault: empty_response").count == 3, "EMPTY_RESPONSE and RANDOM_DATA_THEN_CLOSE: \(manifest)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")

        // On the wire, as docs/stubs-folder.md's table says curl sees each fault.
        let serve = try ServeProcess(["--stubs", dir.path])
        for (path, exit) in [("/reset", 56), ("/empty", 52), ("/chunk", 18), ("/random", 52)] as [(String, Int32)] {
            let curl = try run("/usr/bin/curl", ["-s", "--max-time", "5", "-o", "/dev/null", serve.baseURL.absoluteString + path])
            #expect(curl.status == exit, "\(path): curl exit \(curl.status)")
        }
    }

    /// WireMock's scenario moving `Unpaid` → `Paid`, where no mapping answers in `Paid`: the folder's
    /// check took `Paid` for a misspelt `Unpaid` and the import was taken back; now it imports whole.
    @Test func aScenarioEndStateSpeltLikeAnotherImportsWhole() throws {
        let scratch = try TempStubs([:]).url
        let file = scratch.appendingPathComponent("order.json")
        try Data("""
        {"mappings": [
          {"scenarioName": "order", "requiredScenarioState": "Started", "newScenarioState": "Unpaid",
           "request": {"method": "POST", "url": "/order"}, "response": {"status": 201, "jsonBody": {"id": 1}}},
          {"scenarioName": "order", "requiredScenarioState": "Unpaid",
           "request": {"method": "GET", "url": "/order"}, "response": {"status": 200, "jsonBody": {"paid": false}}},
          {"scenarioName": "order", "requiredScenarioState": "Unpaid", "newScenarioState": "Paid",
           "request": {"method": "POST", "url": "/pay"}, "response": {"status": 200, "jsonBody": {"paid": true}}}
        ]}
        """.utf8).write(to: file)
        let dir = try Self.freshFolder()
        let imported = try Self.importMappings(file, dir)
        #expect(imported.status == 0, "\(imported.output)\(imported.error)")
        #expect(imported.output.contains("imported 3 of 3 mappings"), "\(imported.output)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        #expect(manifest.contains("scenarios:\n  \"order\": [\"Paid\"]\n"), "\(manifest)")
        let check = try run(stubdBinary.path, ["check", "--stubs", dir.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")
        // Importing again changes nothing: the declaration is kept with the routes.
        let again = try Self.importMappings(file, dir)
        #expect(again.status == 0, "\(again.output)\(again.error)")
        #expect(try String(contentsOf: dir.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8) == manifest)

        let serve = try ServeProcess(["--stubs", dir.path])
        let base = serve.baseURL.absoluteString
        #expect(try Self.request("POST", base + "/order").status == 201)
        #expect(String(decoding: try Self.request("GET", base + "/order").body, as: UTF8.self).contains("false"))
        #expect(try Self.request("POST", base + "/pay").status == 200)
        // Paid: no mapping answers in it, as in WireMock.
        #expect(try Self.request("POST", base + "/pay").status == 404)
    }

    /// Issue 62 item 7: a mapping's `name` names its route, not `rec-<hash>`: mappings a team wrote
    /// for WireMock (Fixtures/WireMock/named, provenance in the README), whose names hold spaces.
    @Test func aMappingsNameNamesItsRouteAndItsBody() throws {
        let dir = try Self.freshFolder()
        let imported = try Self.importMappings(Self.fixtures.appendingPathComponent("named"), dir)
        #expect(imported.status == 0, "\(imported.output)\(imported.error)")
        let name = "OP-mock0100000005-Personal-David-Martin"
        #expect(imported.output.contains("\(name) in stubd.recorded.yml"), "\(imported.output)")
        #expect(!imported.output.contains("rec-"), "\(imported.output)")
        let manifest = try String(contentsOf: dir.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        #expect(manifest.contains("  - name: \"\(name)\"\n") && manifest.contains("file: \"\(name).json\""), "\(manifest)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("__files/\(name).json").path))

        let serve = try ServeProcess(["--stubs", dir.path])
        let base = serve.baseURL.absoluteString
        let answer = try Self.request("POST", base + "/cop/v1/online-provisioning/account-info",
                                      headers: ["Authorization: Bearer t", "x-fapi-interaction-id: 1", "x-fapi-financial-id: bank"], body: "{}")
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let hits = try run(stubdBinary.path, ["hits", "--url", base])
        #expect(hits.output.split(separator: "\n").contains { $0.wholeMatch(of: /OP-mock0100000005-Personal-David-Martin +1/) != nil }, "\(hits.output)")
        // Importing again changes no file.
        let before = try HARImportTests.contents(dir)
        #expect(try Self.importMappings(Self.fixtures.appendingPathComponent("named"), dir).status == 0)
        #expect(try HARImportTests.contents(dir) == before)
    }
}
