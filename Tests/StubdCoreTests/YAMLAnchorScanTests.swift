import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

@Suite struct YAMLAnchorScanTests {
    @Test(arguments: [
        "appid: \"*\"\nroutes: [\"GET /api/{key}/**\"]",
        "path: /api/**\nbody: a & b\nx: 2 * 3",
        "# a comment with *star and &amp\nk: v # trailing *x",
        "body: |\n  *bold* and &amp\n  - *item\nnext: 1",
        "{\"request\": {\"path\": \"/a\"}, \"response\": {\"body\": \"*x &y\"}}",
        "q: 'it''s *not* an alias'",
        "- >-\n    &folded text\n- plain",
        // Vendors' prose: a `*` or `&` inside a plain scalar, or starting one of its continuation lines.
        "paths:\n  /a:\n    get:\n      summary: Enable *One click sign-in* for this client\n",
        "A:\n  description: The SID of the call.\n    **Note** this is only set for outbound calls.\n    &amp; more\n  type: string\n",
        "- description: first line\n    *continued* here\n  type: string\n",
        "d: Don't 'quote' *me*\n",
        "d: a, *b*, &c\n",
        "d: [a *b*, c]\n",
        "d: http://x/*y\n",
        // Block and quoted scalars over several lines.
        "d: >\n  folded *x*\n\n  &y\ne: 1",
        "d: \"quoted *x* and\n  *y* on the next line\"\n",
        "d: 'single *x*\n  *y*'\n",
        "- key: |\n    text\n    *x*\n  other: 1\n",
    ])
    func leavesTextThatOnlyLooksLikeAnAliasAlone(text: String) {
        #expect(YAMLAnchors.first(in: text) == nil, "\(text)")
    }

    @Test(arguments: [
        ("a: &x 1\nb: *x", 1, 4, false),
        ("list: [1, *x]", 1, 11, true),
        ("k: !!str &t v", 1, 10, false),
        ("body: |\n  text\nb: *z", 3, 4, true),
        // Where a node starts: a key after a plain value, a sequence entry, an explicit key, a document.
        ("- key: v\n  *a : v", 2, 3, true),
        ("a:\n  - *x\n", 2, 5, true),
        ("? *k\n: v", 1, 3, true),
        ("--- *a", 1, 5, true),
        ("%YAML 1.2\n--- &a x", 2, 5, false),
        ("a: {k: *v}", 1, 8, true),
        ("a: {\"k\":*v}", 1, 9, true),
        ("a: [\n  *x]", 2, 3, true),
        // A block scalar ends where its text's indentation does, not at its key's line's.
        ("- key: |\n    text\n  k2: *a", 3, 7, true),
        // Past a quoted scalar, and past a comment (which ends a plain scalar).
        ("a: \"x\"\nb: &y z", 2, 4, false),
        ("a: b # c\n  *x", 2, 3, true),
    ])
    func findsAnchorsAndAliases(text: String, line: Int, column: Int, isAlias: Bool) {
        let found = YAMLAnchors.first(in: text)
        #expect(found?.line == line && found?.column == column && found?.isAlias == isAlias, "\(text): \(String(describing: found))")
    }

    /// The bomb manifests and specs must never reach Yams with: nested aliases in flow sequences.
    static let aliasBomb = """
        a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        """

    @Test func aSpecWithStarsInItsProseLoadsAndOneWithAnAliasBombDoesNot() throws {
        let prose = try TempStubs(["openapi.yaml": """
            openapi: 3.0.3
            info: {title: clients, version: "1"}
            paths:
              /clients/{id}:
                get:
                  summary: Enable *One click sign-in* for this client
                  description: Whether the client may sign in.
                    **Note** only for first-party clients.
                  parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                  responses:
                    "200": {description: "the *client*"}
            """])
        _ = try APIContract.load(spec: prose.url.appendingPathComponent("openapi.yaml"))

        let bomb = try TempStubs(["openapi.yaml": "openapi: 3.0.3\ninfo: {title: b, version: \"1\"}\npaths: {}\nx-bomb:\n  "
            + YAMLAnchorScanTests.aliasBomb.replacingOccurrences(of: "\n", with: "\n  ")])
        #expect {
            _ = try APIContract.load(spec: bomb.url.appendingPathComponent("openapi.yaml"))
        } throws: { error in
            "\(error)".contains("openapi.yaml:5:6") && "\(error)".contains("anchor &a is not allowed")
        }
    }

    @Test func aManifestWithStarsInItsProseLoadsAndOneWithAnAliasStillDoesNot() throws {
        let prose = try TempStubs(["stubd.yml": """
            routes:
              - name: sign-in
                request: {path: /sign-in}
                response:
                  headers: {X-Note: Enable *One click sign-in* for this client}
                  body: see **Note** below, &amp; more
            """])
        #expect(try prose.load().route("GET", "/sign-in") != nil)

        let alias = try TempStubs(["stubd.yml": """
            routes:
              - request: {path: /a}
                response:
                  headers: {X-One: &one value}
              - request: {path: /b}
                response: {body: *one}
            """])
        let problems = alias.problems()
        #expect(problems.count == 1 && problems.first?.line == 4 && problems.first?.message.contains("anchor &one is not allowed") == true,
                "\(problems)")
    }
}
