import Foundation
import Stubd
import StubdCore
import StubdEngine
import StubdProtocol
import StubdTestSupport
import Testing

/// `serve --spec` holding form, multipart and other request bodies to the operation's `requestBody`
/// (issue 39 item 1), through the real server, sent by curl as an app's HTTP library would send them.
@Suite struct ContractRequestBodyTests {
    /// Twilio's "create a message" (twilio/twilio-oai, api_v2010, MIT licence), cut to the fields the
    /// tests send; an upload taking multipart; an XML-only import; an operation taking no body.
    static let spec = """
        openapi: 3.0.1
        info: { title: Twilio - Api, version: 1.0.0 }
        paths:
          /2010-04-01/Accounts/{AccountSid}/Messages.json:
            post:
              parameters:
                - { name: AccountSid, in: path, required: true, schema: { type: string } }
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema:
                      type: object
                      title: CreateMessageRequest
                      required: [To]
                      properties:
                        To: { type: string, format: phone-number }
                        From: { type: string, format: phone-number }
                        Body: { type: string }
                        MaxPrice: { type: number }
                        ProvideFeedback: { type: boolean }
                        Attempt: { type: integer }
                        ContentRetention: { $ref: "#/components/schemas/message_enum_content_retention" }
                        PersistentAction: { type: array, items: { type: string } }
                        MediaUrl: { type: array, items: { type: string, format: uri } }
              responses:
                "201": { description: Created, content: { application/json: { schema: { type: object } } } }
          /uploads:
            post:
              requestBody:
                required: true
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      required: [file, meta]
                      properties:
                        file: { type: string, format: binary }
                        meta:
                          type: object
                          required: [title]
                          properties: { title: { type: string }, pages: { type: integer } }
                        tags: { type: array, items: { type: string, enum: [a, b, c] } }
                    encoding:
                      file: { contentType: "image/png, image/jpeg" }
              responses:
                "201": { description: Created, content: { application/json: { schema: { type: object } } } }
          /imports:
            post:
              requestBody:
                content:
                  application/xml: { schema: { type: object, properties: { id: { type: integer } } } }
                  text/csv: { schema: { type: object, properties: { id: { type: integer } } } }
              responses:
                "202": { description: Accepted }
          /status:
            get:
              responses:
                "200": { description: OK, content: { application/json: { schema: { type: object } } } }
        components:
          schemas:
            message_enum_content_retention: { type: string, enum: [retain, discard] }
        """

    static let stubs = [
        "stubd.yml": """
            routes:
              - request: { method: POST, path: "/2010-04-01/Accounts/{sid}/Messages.json" }
                response: { status: 201, json: { sid: SM1 } }
              - request: { method: POST, path: /uploads }
                response: { status: 201, json: { id: 1 } }
              - request: { method: POST, path: /imports }
                response: { status: 202 }
              - request: { method: GET, path: /status }
                response: { status: 200, json: { ok: true } }
            """,
    ]

    /// curl's answer: status, headers (names lower-cased) and body.
    struct Answer {
        let status: Int
        let headers: [(String, String)]
        let body: String
        func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        /// `location code` of each entry of a problem's `validation`.
        var problems: [String] {
            ((json["validation"] as? [[String: Any]]) ?? []).map { "\($0["location"] ?? "") \($0["code"] ?? "")" }
        }
    }

    static func curlAnswer(_ base: URL, _ path: String, _ arguments: [String]) throws -> Answer {
        let r = try curl(["-D", "-", "-H", "Expect:"] + arguments + [base.absoluteString + path])
        let parts = r.output.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Answer(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static let messages = "/2010-04-01/Accounts/AC123/Messages.json"

    /// Twilio's own failures: a form without `To`, `MaxPrice=notanumber`, a JSON body where only a
    /// form is taken. Before: 201 for each.
    @Test func aStrictServerHoldsAFormBodyToItsSchema() async throws {
        try await withStrictServer(spec: Self.spec, stubs: Self.stubs) { server in
            let empty = try Self.curlAnswer(server.baseURL, Self.messages, ["-d", ""])
            #expect(empty.status == 422, "\(empty)")
            #expect(empty.problems == ["body required"], "\(empty.body)")
            #expect(empty.body.contains("the required property 'To' is missing"), "\(empty.body)")

            let price = try Self.curlAnswer(server.baseURL, Self.messages, ["-d", "To=%2B15558675310", "-d", "MaxPrice=notanumber"])
            #expect(price.status == 422, "\(price)")
            #expect(price.problems == ["body/MaxPrice type"], "\(price.body)")
            #expect(price.body.contains("expected a number, got the string"), "\(price.body)")

            let json = try Self.curlAnswer(server.baseURL, Self.messages, ["-H", "Content-Type: application/json", "-d", #"{"To": "+15558675310"}"#])
            #expect(json.status == 415, "\(json)")
            #expect(json.header("content-type") == "application/problem+json")
            #expect(json.body.contains("takes application/x-www-form-urlencoded, and the request sent a 22-byte application/json body"), "\(json.body)")
            #expect(json.json["accepted"] as? [String] == ["application/x-www-form-urlencoded"], "\(json.body)")

            // Every form rule at once: numbers, booleans and integers read by their schema, a
            // repeated field a list, a `$ref`'d enum, a list of one.
            let good = try Self.curlAnswer(server.baseURL, Self.messages, [
                "--data-urlencode", "To=+15558675310", "-d", "MaxPrice=0.75", "-d", "ProvideFeedback=true", "-d", "Attempt=3",
                "-d", "ContentRetention=retain", "-d", "MediaUrl=https%3A%2F%2Fexample.com%2Fa.png", "-d", "MediaUrl=https%3A%2F%2Fexample.com%2Fb.png",
                "-d", "PersistentAction=mailto:a@example.com", "--data-urlencode", "Body=2 + 2 = 4",
            ])
            #expect(good.status == 201 && good.body.contains("SM1"), "\(good)")
            #expect(good.header("x-stubd-contract") == nil)

            let wrong = try Self.curlAnswer(server.baseURL, Self.messages, [
                "-d", "To=1", "-d", "To=2", "-d", "Attempt=1.5", "-d", "ProvideFeedback=yes", "-d", "ContentRetention=keep",
            ])
            #expect(wrong.status == 422, "\(wrong)")
            #expect(Set(wrong.problems) == ["body/To type", "body/Attempt type", "body/ProvideFeedback type", "body/ContentRetention enum"], "\(wrong.body)")

            let broken = try Self.curlAnswer(server.baseURL, Self.messages, ["-d", "To=%zz"])
            #expect(broken.status == 422 && broken.problems == ["body form"], "\(broken.body)")
        }
    }

    /// A multipart upload: the file is bytes, a JSON part is JSON, the parts' types are held to
    /// `encoding`; a broken frame is named. Before: 201 for each.
    @Test func aStrictServerHoldsAMultipartBodyToItsSchemaAndEncoding() async throws {
        let stubs = try TempStubs(Self.stubs)
        let png = stubs.url.appendingPathComponent("cover.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]).write(to: png)
        try await withServer(stubs.url, options: try contractOptions(spec: Self.spec)) { server in
            let good = try Self.curlAnswer(server.baseURL, "/uploads", [
                "-F", "file=@\(png.path);type=image/png", "-F", #"meta={"title": "Cover", "pages": 2};type=application/json"#,
                "-F", "tags=a", "-F", "tags=c",
            ])
            #expect(good.status == 201, "\(good)")
            #expect(good.header("x-stubd-contract") == nil, "\(good.headers)")

            let bad = try Self.curlAnswer(server.baseURL, "/uploads", [
                "-F", "file=@\(png.path);type=image/gif", "-F", #"meta={"pages": "two"};type=application/json"#, "-F", "tags=d",
            ])
            #expect(bad.status == 422, "\(bad)")
            #expect(Set(bad.problems) == ["body/file contentType", "body/meta required", "body/meta/pages type", "body/tags/0 enum"], "\(bad.body)")

            let missing = try Self.curlAnswer(server.baseURL, "/uploads", ["-F", "tags=a"])
            #expect(missing.status == 422, "\(missing)")
            #expect(missing.body.contains("the required property 'file' is missing") && missing.body.contains("'meta'"), "\(missing.body)")

            let unframed = try Self.curlAnswer(server.baseURL, "/uploads", ["-H", "Content-Type: multipart/form-data", "-d", "file=x"])
            #expect(unframed.status == 422 && unframed.problems == ["body multipart"], "\(unframed.body)")
            #expect(unframed.body.contains("no boundary= parameter"), "\(unframed.body)")
        }
    }

    /// A body to an operation that takes none, or of a type it does not declare, is 415 in strict
    /// mode; a body of a type stubd cannot read is served with a note, in strict mode too. Before:
    /// the stub, and nothing said.
    @Test func anUndeclaredBodyIs415AndAnUncheckableOneIsSaid() async throws {
        try await withStrictServer(spec: Self.spec, stubs: Self.stubs) { server in
            let toGet = try Self.curlAnswer(server.baseURL, "/status", ["-X", "GET", "-H", "Content-Type: application/json", "-d", "{}"])
            #expect(toGet.status == 415, "\(toGet)")
            #expect(toGet.body.contains("GET /status takes no request body, and the request sent a 2-byte application/json body"), "\(toGet.body)")

            let plain = try Self.curlAnswer(server.baseURL, "/uploads", ["-H", "Content-Type: text/plain", "-d", "hello"])
            #expect(plain.status == 415 && plain.json["accepted"] as? [String] == ["multipart/form-data"], "\(plain.body)")

            let untyped = try Self.curlAnswer(server.baseURL, "/imports", ["-H", "Content-Type:", "--data-binary", "<import/>"])
            #expect(untyped.status == 415 && untyped.body.contains("a 9-byte body with no Content-Type"), "\(untyped.body)")

            // XML is read and held to its schema since issue 58 item 5; CSV stays a type stubd cannot read.
            let xml = try Self.curlAnswer(server.baseURL, "/imports", ["-H", "Content-Type: application/xml", "--data-binary", "<import><id>x</id></import>"])
            #expect(xml.status == 422 && xml.body.contains("body/id"), "\(xml)")
            let csv = try Self.curlAnswer(server.baseURL, "/imports", ["-H", "Content-Type: text/csv", "--data-binary", "id\nx\n"])
            #expect(csv.status == 202, "\(csv)")
            #expect(csv.header("x-stubd-contract")?.hasPrefix("1 problem: body: not checked: ") == true, "\(csv.headers)")
            let journal = try await server.requests()
            #expect(journal.requests.last?.contract?.first?.contains("not text/csv") == true, "\(journal.requests)")
        }
    }

    /// Report mode serves the stub and says what strict mode would have refused.
    @Test func reportModeServesTheStubAndSaysWhatIsWrongWithTheBody() async throws {
        try await withStrictServer(spec: Self.spec, stubs: Self.stubs, validation: .report) { server in
            let json = try Self.curlAnswer(server.baseURL, Self.messages, ["-H", "Content-Type: application/json", "-d", "{}"])
            #expect(json.status == 201, "\(json)")
            #expect(json.header("x-stubd-contract")?.hasPrefix("1 problem: body: POST /2010-04-01/Accounts/{AccountSid}/Messages.json takes application/x-www-form-urlencoded") == true, "\(json.headers)")
            let price = try Self.curlAnswer(server.baseURL, Self.messages, ["-d", "MaxPrice=notanumber"])
            #expect(price.status == 201)
            #expect(price.header("x-stubd-contract")?.hasPrefix("2 problems: ") == true, "\(price.headers)")
            let journal = try await server.requests()
            #expect(journal.requests.last?.contract?.contains { $0.hasPrefix("body/MaxPrice: expected a number") } == true, "\(journal.requests)")
        }
    }
}
