import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What `stubd drift` reports for a recorded answer and two live ones, decided without a socket.
@Suite struct DriftComparisonTests {
    private func answer(_ body: String, status: HTTPResponse.Status = 200, type: String = "application/json",
                        headers: HTTPFields = [:]) -> DriftAnswer {
        DriftAnswer(status: status, headers: fields(["Content-Type": type]) + headers, body: Data(body.utf8))
    }

    private func compare(_ recorded: String, _ live: String, _ again: String? = nil, ignore: [String] = []) throws -> [String] {
        let rules = try ignore.map { text throws(PatternError) in try DriftIgnoreRule(parsing: text) }
        return try DriftComparison.compare(recorded: answer(recorded), live: answer(live), again: answer(again ?? live), ignore: rules)
            .map { "\($0.kind.rawValue) \($0.place) \($0.change)" }
    }

    @Test func ignoreRulesNameAPlaceAndEverythingUnderIt() throws {
        let list = try DriftIgnoreRule(parsing: "/list/*/dt")
        #expect(list.covers(["list", "3", "dt"]))
        #expect(list.covers(["list", "*", "dt"]))
        #expect(list.covers(["list", "0", "dt", "zone"]))
        #expect(!list.covers(["list", "0", "id"]))
        #expect(!list.covers(["list"]))
        let anywhere = try DriftIgnoreRule(parsing: "/**/updated_at")
        #expect(anywhere.covers(["updated_at"]))
        #expect(anywhere.covers(["a", "b", "updated_at"]))
        #expect(!anywhere.covers(["a", "created_at"]))
        // A rule naming one index also names the items' shape, which is reported at `*`.
        #expect(try DriftIgnoreRule(parsing: "/list/0/dt").covers(["list", "*", "dt"]))
        #expect(try DriftIgnoreRule(parsing: "/a~1b/m~0n").covers(["a/b", "m~n"]))
        #expect(throws: PatternError.self) { try DriftIgnoreRule(parsing: "list/*/dt") }
    }

    @Test func shapeComesFirstAValueChangedAlikeInBothLiveAnswersIsValueDrift() throws {
        #expect(try compare(#"{"a": 1, "b": "x", "c": true}"#, #"{"a": 2, "b": "x", "d": null}"#)
            == ["shape /c removed (was boolean)", "shape /d added (null)", "value /a 1 → 2"])
        #expect(try compare(#"{"a": 1}"#, #"{"a": "1"}"#) == ["shape /a number → string"])
        #expect(try compare(#"[1, 2]"#, #"{"items": [1, 2]}"#) == ["shape body array → object"])
    }

    @Test func whatDiffersBetweenTheTwoLiveAnswersIsVolatileNotDrift() throws {
        #expect(try compare(#"{"id": "r-1", "n": 1}"#, #"{"id": "r-2", "n": 1}"#, #"{"id": "r-3", "n": 1}"#)
            == [#"volatile /id differs between two live answers ("r-2" → "r-3")"#])
        // A field present in one live answer only is volatile too, not added.
        #expect(try compare(#"{"n": 1}"#, #"{"n": 1, "debug": "x"}"#, #"{"n": 1}"#) == ["volatile /debug shape differs between two live answers"])
        // Volatile inside a list: one line for the items, not one per item.
        let lines = try compare(#"{"l": [{"t": 1}, {"t": 2}]}"#, #"{"l": [{"t": 5}, {"t": 6}]}"#, #"{"l": [{"t": 7}, {"t": 8}]}"#)
        #expect(lines == ["volatile /l/*/t differs between two live answers (5 → 7)"])
    }

    @Test func anArrayComparesByItsItemsShapeWhateverItsLength() throws {
        #expect(try compare(#"{"l": [{"id": 1}]}"#, #"{"l": [{"id": 1}, {"id": 2}, {"id": 3}]}"#) == ["value /l 1 items → 3"])
        #expect(try compare(#"{"l": [{"id": 1}]}"#, #"{"l": [{"id": 1, "x": 2}, {"id": 2, "x": 3}]}"#)
            == ["shape /l/*/x added (number)", "value /l 1 items → 2"])
        // An empty list has no item shape to compare.
        #expect(try compare(#"{"l": [{"id": 1}]}"#, #"{"l": []}"#) == ["value /l 1 items → 0"])
        // A field sometimes null is not retyped when the other answer has only strings there.
        #expect(try compare(#"{"l": [{"n": null}, {"n": "a"}]}"#, #"{"l": [{"n": "b"}, {"n": "a"}]}"#) == [])
    }

    @Test func ignoredPlacesAreLeftOutOfShapeValuesAndVolatility() throws {
        #expect(try compare(#"{"l": [{"dt": 1}], "meta": {"at": 1}}"#, #"{"l": [{"dt": 9}], "meta": {"at": "x", "b": 1}}"#,
                            ignore: ["/l/*/dt", "/meta"]) == [])
        #expect(try compare(#"{"now": 1}"#, #"{"now": 2}"#, #"{"now": 3}"#, ignore: ["/now"]) == [])
    }

    @Test func statusContentTypeAndKeptHeaders() throws {
        let recorded = answer(#"{"a": 1}"#, headers: fields(["Link": "</p2>", "X-RateLimit-Remaining": "10", "X-Other": "1"]))
        let live = answer(#"{"a": 1}"#, type: "application/json; charset=utf-8", headers: fields(["Link": "</p3>", "X-RateLimit-Remaining": "8", "Retry-After": "1"]))
        let again = answer(#"{"a": 1}"#, type: "application/json; charset=utf-8", headers: fields(["Link": "</p3>", "X-RateLimit-Remaining": "7", "Retry-After": "1"]))
        let found = try DriftComparison.compare(recorded: recorded, live: live, again: again).map { "\($0.kind.rawValue) \($0.place) \($0.change)" }
        #expect(found == [#"value header link "</p2>" → "</p3>""#, #"value header retry-after added ("1")"#,
                          #"volatile header x-ratelimit-remaining "8", then "7""#])
        let moved = try DriftComparison.compare(recorded: recorded, live: answer("", status: 404), again: answer("", status: 404))
        #expect(moved.map(\.change) == ["200 → 404"] && moved.first?.kind == .shape)
        let html = try DriftComparison.compare(recorded: answer(#"{"a": 1}"#), live: answer("<p>", type: "text/html"), again: answer("<p>", type: "text/html"))
        #expect(html.map { "\($0.kind.rawValue) \($0.place)" } == ["shape content-type", "shape body"])
        let text = try DriftComparison.compare(recorded: answer("a", type: "text/plain"), live: answer("b", type: "text/plain"), again: answer("b", type: "text/plain"))
        #expect(text.map { "\($0.kind.rawValue) \($0.place)" } == ["value body"])
    }

    @Test func aLiveAnswerIsMaskedAsTheRecordingWasBeforeItIsCompared() {
        let live = DriftAnswer(status: 201, headers: fields(["Location": "https://api.example.com/v1/r/7", "Set-Cookie": "s=abcdefgh123; Path=/",
                                                             "Date": "today", "Content-Type": "application/json"]),
                               body: Data(#"{"echo": "k=SECRET"}"#.utf8))
        let masked = live.asRecorded(secrets: SecretMasker([("SECRET", "<key>")]), targetOrigin: "https://api.example.com")
        #expect(masked.header(.location) == "/v1/r/7")
        #expect(masked.header(.setCookie) == "s=<redacted>; Path=/")
        #expect(masked.header(.date) == nil)
        #expect(String(decoding: masked.body, as: UTF8.self) == #"{"echo": "k=<key>"}"#)
    }

    @Test func aRouteStandsForOneRequestWithItsSecretsPutBackOrSaysWhyNot() throws {
        let stubs = try TempStubs([
            "api/{key}/items.json": #"{"a": 1}"#,
            "greet/{zip}.json": #"{"a": 1}"#,
            "stubd.recorded.yml": """
            routes:
              - name: rec-1
                request: { path: /w, query: { q: London, appid: "*" }, headers: { X-Tenant: "<tenant>" } }
                response: { status: 200, json: { ok: true } }
              - name: rec-2
                request: { path: /limited }
                response: { status: 429 }
            """,
            "v1/reports.POST.json": #"{"id": 7}"#,
            "stubd.yml": """
            routes:
              - { request: { path: /mine }, response: { status: 204 } }
              - { request: { path: "/any/**" }, response: { status: 204 } }
            """,
        ])
        let catalog = try stubs.load()
        let secrets = [NamedSecret(name: "key", value: "K1"), NamedSecret(name: "appid", value: "A1"), NamedSecret(name: "tenant", value: "T1")]
        func plan(_ signature: String, all: Bool = false) -> DriftRequest.Plan {
            DriftRequest.plan(for: catalog.routes.first { $0.signature == signature || $0.name == signature }!, secrets: secrets, includeHandWritten: all)
        }
        guard case .replay(let items) = plan("GET /api/{key}/items.json") else { Issue.record("not replayed"); return }
        #expect(items.request.paths == ["/api/K1/items", "/api/K1/items.json"])
        #expect(items.shown(secrets: SecretMasker([("K1", "<key>")])) == "GET /api/{key}/items")
        guard case .replay(let w) = plan("rec-1") else { Issue.record("not replayed"); return }
        #expect(w.request.query.map { "\($0.name)=\($0.value ?? "")" } == ["q=London", "appid=A1"])
        #expect(w.request.headers.map { "\($0.name): \($0.value)" } == ["x-tenant: T1"])
        guard case .skip(let zip) = plan("GET /greet/{zip}.json") else { Issue.record("replayed"); return }
        #expect(zip.contains("pass --secret zip=VALUE"))
        guard case .skip(let limited) = plan("rec-2") else { Issue.record("replayed"); return }
        #expect(limited.contains("429"))
        guard case .handWritten = plan("GET /mine") else { Issue.record("a hand-written route without --all"); return }
        guard case .replay = plan("GET /mine", all: true) else { Issue.record("not replayed with --all"); return }
        guard case .skip(let wildcard) = plan("GET /any/**", all: true) else { Issue.record("replayed"); return }
        #expect(wildcard.contains("/**"))
        // Sent twice, a POST may create two reports on the real API: only with --unsafe.
        #expect(plan("POST /v1/reports.json").skipReason?.contains("--unsafe replays it") == true)
        guard case .replay(let post) = DriftRequest.plan(for: catalog.routes.first { $0.signature == "POST /v1/reports.json" }!, secrets: [],
                                                         includeHandWritten: false, unsafeMethods: true) else { Issue.record("not replayed"); return }
        #expect(post.request.method == .post)
        #expect(DriftRequest.plan(for: catalog.routes.first { $0.name == "rec-1" }!, secrets: [], includeHandWritten: false).skipReason?
            .contains("pass --secret appid=VALUE") == true)
    }

    /// `drift --timeout` is for the whole run: a comparison past the deadline stops (issue 38).
    @Test func aComparisonPastItsDeadlineStops() throws {
        let wide = "{" + (0..<20_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        let other = "{" + (0..<20_000).map { "\"k\($0)\": \($0 + 1)" }.joined(separator: ",") + "}"
        #expect(throws: DriftComparison.DeadlinePassed.self) {
            try DriftComparison.compare(recorded: answer(wide), live: answer(other), again: answer(other),
                                        deadline: DispatchTime.now().uptimeNanoseconds)
        }
        #expect(try DriftComparison.compare(recorded: answer(wide), live: answer(other), again: answer(other)).count == 20_000)
    }
}

extension DriftRequest.Plan {
    var skipReason: String? { if case .skip(let why) = self { return why } else { return nil } }
}
