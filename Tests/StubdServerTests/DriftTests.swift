import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Stubd
import StubdCore
import StubdEngine
import StubdTestSupport
import Testing

/// `stubd drift` as a user runs it: a folder recorded from a local API over real sockets, the API
/// then changed, and the binary replaying the folder's requests against it.
@Suite(.serialized) struct DriftTests {
    static let key = "SECRETKEY123"

    /// The API: its answers depend on a mode read from a file at each request (`v1` as recorded,
    /// `v2` changed, `429` refusing /profile), `/token` answers a new nonce every time, and
    /// `/__log` tells which paths it was asked for. A path without the key gets 404.
    static let script = """
    import http.server, json, sys, threading, time
    mode_file = sys.argv[1]
    key = sys.argv[2]
    lock = threading.Lock()
    state = {"n": 0, "log": []}
    def mode():
        return open(mode_file).read().strip()
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def send(self, status, body, ctype="application/json", headers=()):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            for k, v in headers: self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        def do_GET(self):
            path, _, query = self.path.partition("?")
            if path == "/__log":
                with lock: return self.send(200, state["log"])
            with lock:
                state["n"] += 1
                n = state["n"]
                state["log"].append(path)
            m = mode()
            if m == "slow" and path == "/profile":
                time.sleep(60)
            if m == "429" and path == "/profile":
                return self.send(429, {"message": "slow down"}, headers=[("Retry-After", "30")])
            if path == "/api/" + key + "/items":
                item = {"id": 1, "name": "a"}
                if m == "v2": item["extra"] = True
                return self.send(200, {"items": [item], "count": 1})
            if path == "/profile":
                p = {"id": 7, "name": "ada", "email": "ada@example.com"}
                if m == "v2": del p["email"]
                return self.send(200, p)
            if path == "/stats":
                return self.send(200, {"total": "10" if m == "v2" else 10})
            if path == "/token":
                return self.send(200, {"nonce": "n-%d" % n, "ok": True})
            if path == "/list" and query == "page=1":
                base = 1800000000 if m == "v2" else 1700000000
                return self.send(200, {"list": [{"id": 1, "dt": base}, {"id": 2, "dt": base + 1}]})
            self.send(404, {"message": "not found"})
    s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    print(s.server_address[1], flush=True)
    s.serve_forever()
    """

    /// The requests the app made while recording.
    static let paths = ["/api/\(key)/items", "/profile", "/stats", "/token", "/list?page=1"]

    typealias API = SwitchableUpstream

    /// The API `script` serves, in mode v1 until a test sets another.
    static func api() throws -> API { try API(script: script, arguments: [key]) }

    /// A folder recorded from `api` in mode v1 (secrets out), with a stubd.yml that ignores the list's timestamps.
    func recordedFolder(from api: API) async throws -> URL {
        let folder = try TempStubs([:]).url
        let options = try StubServer.Options.forwarding(to: api.url, recordingInto: folder, rules: RecordingRules(secrets: [NamedSecret(name: "key", value: Self.key)], targetOrigin: api.url.origin))
        let recorder = try StubServer(stubs: folder, options: options)
        for path in Self.paths {
            #expect(try await get(recorder.baseURL, path).status == 200, "\(path)")
        }
        recorder.stopSynchronously()
        try Data("""
            drift:
              ignore: ["/list/*/dt"]

            """.utf8).write(to: folder.appendingPathComponent("stubd.yml"))
        return folder
    }

    /// Every file's bytes and every folder, by path (the bytes themselves: stricter than a hash of them).
    static func hashes(_ folder: URL) throws -> [String: Data] {
        var all: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in e {
            let relative = url.path.replacingOccurrences(of: folder.path, with: "")
            all[relative] = url.hasDirectoryPath ? Data("(folder)".utf8) : try Data(contentsOf: url)
        }
        return all
    }

    func drift(_ folder: URL, _ api: API, _ more: [String] = []) throws -> (status: Int32, report: [String: Any], output: String, error: String) {
        let r = try run(stubdBinary.path, ["drift", "--target", api.url.absoluteString, "--stubs", folder.path,
                                           "--secret", "key=\(Self.key)", "--format", "json"] + (more.contains("--rate") ? more : ["--rate", "50"] + more))
        let report = (try? JSONSerialization.jsonObject(with: Data(r.output.utf8))) as? [String: Any] ?? [:]
        return (r.status, report, r.output, r.error)
    }

    /// `stubd drift` of `folder` against `target` (as JSON, 50 requests a second) before and after
    /// `change` makes the API answer otherwise, as the stream recording suites check a stream's drift:
    /// before, no finding and exit 0; after, exit 1. Returns what it found after, and all it printed.
    static func findings(of folder: URL, against target: URL, after change: () throws -> Void) throws -> (findings: Set<String>, output: String) {
        func drift() throws -> (status: Int32, findings: Set<String>, output: String) {
            let r = try run(stubdBinary.path, ["drift", "--target", target.absoluteString, "--stubs", folder.path, "--format", "json", "--rate", "50"])
            let report = (try? JSONSerialization.jsonObject(with: Data(r.output.utf8))) as? [String: Any] ?? [:]
            return (r.status, findings(report), r.output + r.error)
        }
        let same = try drift()
        #expect(same.status == 0 && same.findings.isEmpty, "\(same.output)")
        try change()
        let changed = try drift()
        #expect(changed.status == 1, "\(changed.output)")
        return (changed.findings, changed.output)
    }

    /// (kind, request, place) of every finding.
    static func findings(_ report: [String: Any]) -> Set<String> {
        var out = Set<String>()
        for route in report["routes"] as? [[String: Any]] ?? [] {
            for f in route["findings"] as? [[String: Any]] ?? [] {
                out.insert("\(f["kind"]!) \(route["request"]!) \(f["place"]!)")
            }
        }
        return out
    }

    @Test func reportsAddedRemovedAndRetypedFieldsAsShapeDriftTheNonceAsVolatileAndNothingIgnoredLeavingTheFolderAsItWas() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let before = try Self.hashes(folder)
        #expect(before.keys.contains("/stubd.recorded.yml"), "\(before.keys.sorted())")
        #expect(before.keys.contains("/api/{key}/items.json"), "\(before.keys.sorted())")

        try api.set("v2")
        let r = try drift(folder, api)
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(Self.findings(r.report) == [
            "shape GET /api/{key}/items /items/*/extra",
            "shape GET /profile /email",
            "shape GET /stats /total",
            "volatile GET /token /nonce",
        ], "\(r.output)")
        let changes = (r.report["routes"] as? [[String: Any]] ?? []).flatMap { $0["findings"] as? [[String: Any]] ?? [] }.map { "\($0["change"]!)" }
        #expect(changes.contains("added (boolean)") && changes.contains("removed (was string)") && changes.contains("number → string"), "\(changes)")
        #expect(!r.output.contains(Self.key), "the report holds the secret")
        #expect(try Self.hashes(folder) == before, "drift changed the folder")

        // The table: shape changes first, the exit status said.
        let table = try run(stubdBinary.path, ["drift", "--target", api.url.absoluteString, "--stubs", folder.path,
                                               "--secret", "key=\(Self.key)", "--rate", "50"])
        #expect(table.status == 1)
        let lines = table.output.split(separator: "\n").map(String.init)
        let firstVolatile = lines.firstIndex { $0.contains("volatile") } ?? 0
        let lastShape = lines.lastIndex { $0.hasPrefix("  shape") } ?? Int.max
        #expect(lastShape < firstVolatile, "\(table.output)")
        #expect(table.output.contains("3 shape change(s) in 3 route(s)"), "\(table.output)")
        #expect(try Self.hashes(folder) == before)
    }

    @Test func anUnchangedAPIIsNoDriftAndExits0WithItsVolatileValueReportedApart() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let r = try drift(folder, api)
        #expect(r.status == 0, "\(r.output)\(r.error)")
        #expect(Self.findings(r.report) == ["volatile GET /token /nonce"], "\(r.output)")
        // Each of the five routes twice: the secret went back into the path, or /items would be a 404.
        #expect(try await api.log().suffix(10).sorted() == (Self.paths.map { $0.split(separator: "?")[0] } + Self.paths.map { $0.split(separator: "?")[0] })
            .map(String.init).sorted())
    }

    /// The API's contract as its documentation states it, but wrong in one place the API never kept
    /// (`/token`'s `ok` is documented as a string), and with nothing about `/list`.
    static let spec = """
    openapi: 3.0.3
    info: {title: drift test API, version: "1"}
    paths:
      /api/{key}/items:
        get:
          parameters: [{name: key, in: path, required: true, schema: {type: string}}]
          responses:
            "200":
              description: the items
              content:
                application/json:
                  schema:
                    type: object
                    required: [items, count]
                    properties:
                      count: {type: integer}
                      items:
                        type: array
                        items:
                          type: object
                          additionalProperties: false
                          required: [id, name]
                          properties: {id: {type: integer}, name: {type: string}}
      /profile:
        get:
          responses:
            "200":
              description: the profile
              content:
                application/json:
                  schema:
                    type: object
                    required: [id, name, email]
                    properties: {id: {type: integer}, name: {type: string}, email: {type: string}}
      /stats:
        get:
          responses:
            "200":
              description: counts
              content:
                application/json:
                  schema: {type: object, properties: {total: {type: integer}}}
      /token:
        get:
          responses:
            "200":
              description: a nonce
              content:
                application/json:
                  schema: {type: object, properties: {nonce: {type: string}, ok: {type: string}}}

    """

    func specFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-drift-spec-\(UUID().uuidString).yaml")
        try Data(Self.spec.utf8).write(to: file)
        return file
    }

    /// (kind, request, place) of the contract findings only.
    static func contractFindings(_ report: [String: Any]) -> Set<String> {
        findings(report).filter { $0.hasPrefix("contract ") }
    }

    @Test func withASpecALiveAnswerThatBreaksItIsReportedAndExits1EvenWithoutShapeDrift() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let before = try Self.hashes(folder)
        let spec = try specFile()
        let r = try drift(folder, api, ["--spec", spec.path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(Self.findings(r.report) == ["volatile GET /token /nonce", "contract GET /token /ok"], "\(r.output)")
        #expect(r.report["contractDrift"] as? Bool == true && r.report["shapeDrift"] as? Bool == false, "\(r.output)")
        let routes = r.report["routes"] as? [[String: Any]] ?? []
        let list = routes.first { ($0["request"] as? String ?? "").hasPrefix("GET /list") }
        let note = list?["problem"] as? String
        #expect(note?.contains("matches no operation") == true, "\(r.output)")
        #expect(!r.output.contains(Self.key), "the report holds the secret")
        #expect(try Self.hashes(folder) == before, "drift changed the folder")

        let table = try run(stubdBinary.path, ["drift", "--target", api.url.absoluteString, "--stubs", folder.path,
                                               "--secret", "key=\(Self.key)", "--rate", "50", "--spec", spec.path])
        #expect(table.status == 1)
        #expect(table.output.contains("  contract /ok") && table.output.contains("expected"), "\(table.output)")
        #expect(table.output.contains("exit 1 (the live API breaks the spec)"), "\(table.output)")
        // Without the spec the same run is no drift: the finding is the spec's, not the stubs'.
        #expect(try drift(folder, api).status == 0)
    }

    /// `--spec` twice, the API's operations split between the two (/token, whose `ok` the API breaks,
    /// in the first): each live answer is held against the spec declaring its operation, as with the
    /// one spec. Before: `--spec` took one file, the last given won, and /token was held against none.
    @Test func withTwoSpecsEachLiveAnswerIsHeldAgainstTheSpecDeclaringItsOperation() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let parts = Self.spec.components(separatedBy: "\n  /") // the header, then items, profile, stats, token
        let folderOfSpecs = try TempStubs(["items.yaml": parts[0] + "\n  /" + parts[1] + "\n  /" + parts[4],
                                           "account.yaml": parts[0] + "\n  /" + parts[2] + "\n  /" + parts[3]]).url
        let r = try drift(folder, api, ["--spec", folderOfSpecs.appendingPathComponent("items.yaml").path,
                                        "--spec", folderOfSpecs.appendingPathComponent("account.yaml").path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(Self.findings(r.report) == ["volatile GET /token /nonce", "contract GET /token /ok"], "\(r.output)")
        #expect(r.report["spec"] as? String == "items.yaml and account.yaml", "\(r.output)")
        let routes = r.report["routes"] as? [[String: Any]] ?? []
        let list = routes.first { ($0["request"] as? String ?? "").hasPrefix("GET /list") }
        #expect((list?["problem"] as? String)?.contains("matches no operation in items.yaml or account.yaml") == true, "\(r.output)")
    }

    @Test func withASpecChangedAnswersAreShapeDriftAndBreakTheSpecWhereItSaysSo() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        try api.set("v2")
        let r = try drift(folder, api, ["--spec", try specFile().path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        let contract = Self.contractFindings(r.report)
        // The extra item field breaks additionalProperties: false, the lost email `required`, the
        // string total `type: integer`; /token's documented string `ok` as before.
        #expect(contract.contains("contract GET /api/{key}/items /items/0/extra") || contract.contains("contract GET /api/{key}/items /items/0"), "\(contract)")
        #expect(contract.contains("contract GET /stats /total"), "\(contract)")
        #expect(contract.contains(where: { $0.hasPrefix("contract GET /profile ") }), "\(contract)")
        #expect(contract.contains("contract GET /token /ok"), "\(contract)")
        #expect(Self.findings(r.report).contains("shape GET /stats /total"), "\(r.output)")
    }

    @Test func stopsAtTheFirst429SendsNothingMoreAndSaysSo() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let before = try await api.log().count
        try api.set("429")
        let r = try drift(folder, api)
        #expect(r.status == 2, "\(r.output)\(r.error)")
        let stopped = r.report["stopped"] as? String ?? ""
        #expect(stopped.contains("429") && stopped.contains("GET /profile ") && stopped.contains("Retry-After: 30"), "\(r.output)")
        #expect(stopped.contains("3 route(s) not checked"), "\(stopped)") // /profile itself, /stats, /token
        // The recorded list, the items, then /profile once: nothing after the 429.
        let log = try await api.log().dropFirst(before)
        #expect(log.last == "/profile", "\(log)")
        #expect(log.filter { $0 == "/profile" }.count == 1, "\(log)")
        #expect(!log.contains("/stats") && !log.contains("/token"), "\(log)")
    }

    @Test func aTotalTimeoutStopsTheRunAndSaysWhatWasNotChecked() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        try api.set("slow")
        let started = Date()
        let r = try drift(folder, api, ["--timeout", "2"])
        // /profile takes a minute; the run must end at its own deadline, generously bounded.
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(r.status == 2, "\(r.output)\(r.error)")
        let stopped = r.report["stopped"] as? String ?? ""
        #expect(stopped.contains("--timeout (2 s for the whole run) passed") && stopped.contains("GET /profile"), "\(stopped)")
        #expect(stopped.contains("3 route(s) not checked"), "\(stopped)")
    }

    @Test func anUnreachableAPIStopsAtOnceWithExit2() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let r = try run(stubdBinary.path, ["drift", "--target", "http://127.0.0.1:1", "--stubs", folder.path,
                                           "--secret", "key=\(Self.key)", "--format", "json"])
        #expect(r.status == 2, "\(r.output)\(r.error)")
        #expect(r.output.contains("cannot reach http://127.0.0.1:1"), "\(r.output)")
        #expect(r.output.contains("5 route(s) not checked"), "\(r.output)")
    }

    @Test func keepsToRate() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let started = Date()
        let r = try drift(folder, api, ["--rate", "4"])
        // Ten requests at 4 a second: the last leaves 2.25 s after the first at the earliest.
        #expect(Date().timeIntervalSince(started) >= 2.25)
        #expect(r.status == 0, "\(r.output)\(r.error)")
    }

    @Test func writesFreshRecordingsElsewhereAndRefusesAFolderInsideTheStubs() async throws {
        let api = try DriftTests.api()
        let folder = try await recordedFolder(from: api)
        let before = try Self.hashes(folder)
        try api.set("v2")
        let inside = try drift(folder, api, ["--write", folder.appendingPathComponent("live").path])
        #expect(inside.status != 0 && inside.status != 1, "\(inside.output)")
        #expect(inside.error.contains("inside the Stubs folder"), "\(inside.error)")

        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-drift-live-\(UUID().uuidString)")
        let r = try drift(folder, api, ["--write", elsewhere.path])
        #expect(r.status == 1, "\(r.output)\(r.error)")
        #expect(try Self.hashes(folder) == before, "drift changed the folder")
        let items = try String(contentsOf: elsewhere.appendingPathComponent("api/{key}/items.json"), encoding: .utf8)
        #expect(items.contains("\"extra\""), "the fresh recording holds the new field: \(items)")
        #expect(!(try Self.hashes(elsewhere).keys.contains { $0.contains(Self.key) }))
        let check = try run(stubdBinary.path, ["check", "--stubs", elsewhere.path])
        #expect(check.status == 0, "\(check.output)\(check.error)")
    }

}

extension SwitchableUpstream {
    /// The requests DriftTests' API was asked, in order.
    func log() async throws -> [String] {
        (try JSONSerialization.jsonObject(with: try await get(url, "/__log").body) as? [String]) ?? []
    }
}
