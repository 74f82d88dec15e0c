import Foundation
import StubdTestSupport
import Testing

/// Numbers past 2^53 in a stub's answer, held to the spec as written by `stubd check --spec` and
/// `stubd serve --spec`, run as a user runs them (the requests' numbers are ContractNumberTests', in
/// StubdCoreTests, through the engine).
@Suite struct ContractNumberCheckTests {
    /// A stub's answer is held to the spec as written too: its numbers went through a Double, so
    /// 9007199254740993 (2^53 + 1, rounded to 2^53) passed `maximum: 9007199254740992`, and 2^53 was
    /// refused by `const: 9007199254740993`. `check --spec` and `serve --spec` read them exactly.
    @Test func aStubsAnswerPast2To53IsHeldToTheSpecAsWritten() async throws {
        let folder = try TempStubs(["openapi.yaml": """
            openapi: 3.1.0
            info: { title: Ids, version: "1" }
            paths:
              /ids/{id}:
                get:
                  parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
                  responses:
                    "200":
                      description: an id
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              n: { type: integer, maximum: 9007199254740992 }
                              same: { const: 9007199254740993 }
            """])
        let spec = folder.url.appendingPathComponent("openapi.yaml").path
        let good = try TempStubs(["ids/a.json": #"{"n": 9007199254740992, "same": 9007199254740993}"#])
        let kept = try run(stubdBinary.path, ["check", "--stubs", good.url.path, "--spec", spec])
        #expect(kept.status == 0, "\(kept.error)")

        let bad = try TempStubs(["ids/a.json": #"{"n": 9007199254740993, "same": 9007199254740992}"#])
        let broken = try run(stubdBinary.path, ["check", "--stubs", bad.url.path, "--spec", spec])
        #expect(broken.status == 1)
        #expect(broken.error.contains("ids/a.json:1:7: GET /ids/{id} 200: /n: expected a number <= 9007199254740992, got 9007199254740993"), "\(broken.error)")
        #expect(broken.error.contains("ids/a.json:1:33: GET /ids/{id} 200: /same: expected exactly 9007199254740993, got the number 9007199254740992"), "\(broken.error)")

        // The server holds its stubs to the spec at load the same way.
        let served = try run(stubdBinary.path, ["serve", "--stubs", bad.url.path, "--spec", spec, "--port", "0"], killedAfter: 20)
        #expect(served.status != 0)
        #expect(served.error.contains("/n: expected a number <= 9007199254740992, got 9007199254740993"), "\(served.error)")
        let serve = try ServeProcess(["--stubs", good.url.path, "--spec", spec])
        #expect(try await get(serve.baseURL, "/ids/a").text.contains("9007199254740993"))
    }
}
