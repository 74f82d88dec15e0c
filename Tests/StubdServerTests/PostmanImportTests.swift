import Foundation
import StubdTestSupport
import Testing

/// `stubd import postman` on Wise's public payouts collection and a small one written for the
/// cases it lacks (Fixtures/Postman/README.md): each saved example served by `stubd serve` gives
/// its status and body; a request without an example is listed; bad input writes nothing.
/// Bad collections, refused with no server: PostmanImportRefusalTests.
@Suite struct PostmanImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Postman")

    static func importCollection(_ file: String, _ dir: URL, _ extra: [String] = []) throws -> (status: Int32, output: String, error: String) {
        try run(stubdBinary.path, ["import", "postman", fixtures.appendingPathComponent(file).path, "--stubs", dir.path] + extra)
    }

    @Test func wisesCollectionServedGivesEachSavedExample() throws {
        let dir = try ImportedStubs("postman", Self.fixtures.appendingPathComponent("wise-payouts.postman_collection.json"),
                                    saying: ["imported 2 of 33 examples and requests", "31 not imported",
                                             "NOT IMPORTED: no saved example answer",
                                             // Issue 62 item 7: each route is named after its example, not `rec-<hash>`.
                                             "1-Generate-access-token-from-refresh-token in stubd.recorded.yml",
                                             "1-Create-Refund-Recipient in stubd.recorded.yml"]).stubs

        // The collection's own examples, read here with Foundation, requested from the server.
        let top = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("wise-payouts.postman_collection.json"))) as! [String: Any]
        var examples: [[String: Any]] = []
        func walk(_ items: [[String: Any]]) {
            for item in items {
                if let children = item["item"] as? [[String: Any]] { walk(children) } else { examples += item["response"] as? [[String: Any]] ?? [] }
            }
        }
        walk(top["item"] as! [[String: Any]])
        #expect(examples.count == 2)
        let serve = try ServeProcess(["--stubs", dir.path])
        for example in examples {
            let request = example["originalRequest"] as! [String: Any]
            let path = ((request["url"] as! [String: Any])["path"] as! [String]).joined(separator: "/")
            let answer = try WireMockImportTests.request(request["method"] as! String, serve.baseURL.absoluteString + "/" + path)
            #expect(answer.status == example["code"] as! Int, "\(path)")
            #expect(answer.body == Data((example["body"] as! String).utf8), "\(path): \(String(decoding: answer.body, as: UTF8.self).prefix(200))")
            #expect(answer.headers["content-encoding"] == nil, "the saved body is decoded text: Content-Encoding is not replayed")
        }
    }

    @Test func examplesOfOneRequestParametersAndBaseURLPaths() throws {
        let dir = try ImportedStubs("postman", Self.fixtures.appendingPathComponent("orders.postman_collection.json"),
                                    saying: ["imported 4 of 5 examples and requests", "Orders / Cancel order",
                                             "(when asked for by x-mock-response-name)",
                                             "Not-found in stubd.recorded.yml", "Shipped in stubd.recorded.yml"]).stubs

        let serve = try ServeProcess(["--stubs", dir.path])
        let base = serve.baseURL.absoluteString
        // {{baseUrl}} is https://api.example.com/v2: its path leads; :orderId takes any id.
        let found = try WireMockImportTests.request("GET", base + "/v2/orders/42")
        #expect(found.status == 200 && found.body == Data("{\n  \"id\": 7,\n  \"state\": \"shipped\"\n}".utf8), "\(String(decoding: found.body, as: UTF8.self))")
        let missing = try WireMockImportTests.request("GET", base + "/v2/orders/42", headers: ["x-mock-response-name: Not found"])
        #expect(missing.status == 404 && missing.body == Data(#"{"error": "no such order"}"#.utf8))
        // The query's value holding {{token}} takes any value; the disabled one is not a condition.
        let search = try WireMockImportTests.request("GET", base + "/v2/orders?state=shipped&token=abc")
        #expect(search.status == 200 && search.body == Data(#"[{"id": 7}]"#.utf8))
        #expect(try WireMockImportTests.request("GET", base + "/v2/orders?state=open&token=abc").status != 200)
        let pong = try WireMockImportTests.request("GET", base + "/v2/ping")
        #expect(pong.status == 200 && pong.body == Data("pong".utf8))
        #expect(try WireMockImportTests.request("DELETE", base + "/v2/orders/42").status != 200, "no saved example: not imported")

        // Importing again changes no file.
        let before = try HARImportTests.contents(dir)
        let again = try Self.importCollection("orders.postman_collection.json", dir)
        #expect(again.status == 0 && again.output.contains("4 already answered"), "\(again.output)\(again.error)")
        #expect(try HARImportTests.contents(dir) == before)
    }
}
