import Foundation
import HTTPTypes
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// The engine answering a Stubs folder with no socket (issue 59): a request value in, through the
/// engine's one entry (`StubEngine.answer(_:session:)`, as every front), the answer's status,
/// headers and body out, in a session of the test's naming, as libmicrohttpd's front would
/// send them (a template left to the front is rendered here, as the front renders it off the
/// worker). For tests whose subject is the engine: templates, quotas, sequences, sessions, the
/// journal. What the wire carries (framing, delays in real time, streams, faults, TLS) stays in
/// StubdServerTests, through a real server.
struct EngineHarness {
    let engine: StubEngine

    init(_ stubs: TempStubs) throws {
        engine = StubEngine(catalog: try stubs.load())
    }

    /// `target` is a path with an optional `?query`; a query's values are taken as written (no `%` decoding).
    func answer(_ target: String, method: HTTPRequest.Method = .get, headers: KeyValuePairs<String, String> = [:], body: String = "",
                session: String = "") -> EngineAnswer {
        let mark = target.firstIndex(of: "?")
        let path = String(target[..<(mark ?? target.endIndex)])
        let query = mark.map { queryItems(parsing: target[target.index(after: $0)...]) } ?? []
        var outcome = engine.answer(RequestHead(method: method, path: path, query: query, headers: fields(headers), body: Data(body.utf8)),
                                    session: session)!
        if let job = outcome.deferred { outcome = engine.render(job) }
        switch outcome.answer {
        case let .canned(canned, extra):
            var all = canned.headers
            all.append(contentsOf: extra.list)
            return EngineAnswer(status: canned.status.code, headers: all, body: canned.body)
        case .generated(let generated):
            return EngineAnswer(status: generated.status.code, headers: generated.headers, body: generated.body)
        }
    }
}

/// An answer as `EngineHarness` gives it.
struct EngineAnswer {
    let status: Int
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}
