import Foundation
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport
import StubdProtocol
import Testing

/// `serve --spec --validate requests=strict` asking for the credential an operation's `security`
/// names (issue 39 item 3): presence only, any one alternative, none echoed. What the engine decides
/// of a request's credentials, through `EngineHarness` with no socket (moved from StubdServerTests,
/// where curl sent them).
@Suite struct ContractSecurityTests {
    static let spec = """
        openapi: 3.1.0
        info: { title: Keys, version: "1" }
        security:
          - basicAuth: []
        paths:
          /basic:
            get:
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /either:
            get:
              security:
                - apiKeyHeader: []
                - apiKeyQuery: []
                - session: []
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /both:
            get:
              security:
                - apiKeyHeader: []
                  bearer: []
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /oauth:
            get:
              security:
                - oauth: [read]
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /public:
            get:
              security: []
              responses: { "200": { $ref: "#/components/responses/ok" } }
          /optional:
            get:
              security:
                - {}
                - bearer: []
              responses: { "200": { $ref: "#/components/responses/ok" } }
        components:
          responses:
            ok: { description: OK, content: { application/json: { schema: { type: object } } } }
          securitySchemes:
            basicAuth: { type: http, scheme: basic }
            bearer: { type: http, scheme: bearer, bearerFormat: JWT }
            apiKeyHeader: { type: apiKey, in: header, name: X-API-Key }
            apiKeyQuery: { type: apiKey, in: query, name: api_key }
            session: { type: apiKey, in: cookie, name: SESSION }
            oauth:
              type: oauth2
              flows: { clientCredentials: { tokenUrl: "https://example.com/token", scopes: { read: read } } }
        """

    static let stubs = [
        "basic.json": "{}", "either.json": "{}", "both.json": "{}", "oauth.json": "{}", "public.json": "{}", "optional.json": "{}",
    ]

    /// Each scheme's absence is 401 naming it and where it goes, with `WWW-Authenticate` for http
    /// and OAuth schemes; its presence (any value) gets the stub. Before: 200 for every request.
    @Test func aStrictServerAsksForTheCredentialEachOperationRequires() throws {
        try withStrictEngine(spec: Self.spec, stubs: Self.stubs) { server in
            let none = server.get("/basic")
            #expect(none.status == 401, "\(none.text)")
            #expect(none.header("content-type") == "application/problem+json")
            #expect(none.header("www-authenticate") == #"Basic realm="openapi.yaml""#, "\(none.headers)")
            #expect(none.text.contains("GET /basic requires the security scheme 'basicAuth' (an Authorization: Basic header)"), "\(none.text)")
            let located = (none.json["validation"] as? [[String: Any]])?.first
            #expect(located?["location"] as? String == "header.authorization" && located?["code"] as? String == "security", "\(none.text)")
            // The root's requirement, met by a Basic credential of any value; a Bearer one is not it.
            #expect(server.get("/basic", headers: ["Authorization": "Basic dXNlcjpwYXNz"]).status == 200)
            #expect(server.get("/basic", headers: ["Authorization": "Bearer abc"]).status == 401)

            let either = server.get("/either")
            #expect(either.status == 401 && either.header("www-authenticate") == nil, "\(either.headers)")
            #expect(either.text.contains("'apiKeyHeader' (the header X-API-Key)") && either.text.contains("'apiKeyQuery' (the query parameter 'api_key')")
                    && either.text.contains("'session' (the cookie 'SESSION')"), "\(either.text)")
            #expect(server.get("/either", headers: ["X-API-Key": "k1"]).status == 200)
            #expect(server.get("/either?api_key=k2").status == 200)
            #expect(server.get("/either", headers: ["Cookie": "theme=dark; SESSION=s3"]).status == 200)
            #expect(server.get("/either", headers: ["Cookie": "theme=dark"]).status == 401)

            // One requirement naming two schemes needs both.
            let half = server.get("/both", headers: ["X-API-Key": "k1"])
            #expect(half.status == 401 && half.header("www-authenticate") == #"Bearer realm="openapi.yaml""#, "\(half.headers)")
            #expect(server.get("/both", headers: ["X-API-Key": "k1", "Authorization": "Bearer t"]).status == 200)

            let oauth = server.get("/oauth")
            #expect(oauth.status == 401 && oauth.header("www-authenticate") == #"Bearer realm="openapi.yaml""#, "\(oauth.headers)")
            #expect(server.get("/oauth", headers: ["Authorization": "Bearer t"]).status == 200)

            #expect(server.get("/public").status == 200)
            #expect(server.get("/optional").status == 200)
        }
    }

    /// Report mode serves the stub and notes the missing credential; the value of one sent is never
    /// echoed, in the answer or the journal.
    @Test func reportModeNotesAMissingCredentialAndNeverEchoesOne() throws {
        try withStrictEngine(spec: Self.spec, stubs: Self.stubs, validation: .report) { server in
            let none = server.get("/both", headers: ["X-API-Key": "sekrit-value-123"])
            #expect(none.status == 200)
            let header = none.header("X-Stubd-Contract") ?? ""
            #expect(header.hasPrefix("1 problem: header.x-api-key: GET /both requires the security scheme") || header.hasPrefix("1 problem: header.authorization: GET /both requires"), "\(header)")
            #expect(!header.contains("sekrit"), "\(header)")
            let journal = try server.requests()
            let noted = journal.requests.last?.contract ?? []
            #expect(noted.count == 1 && noted[0].contains("'bearer' (an Authorization: Bearer header)"), "\(noted)")
            #expect(!noted.joined().contains("sekrit"), "\(noted)")
        }
    }
}
