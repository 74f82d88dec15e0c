import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// What a real API's caching and ranges give a client (issue 58 item 6): `ETag` and `Last-Modified`
/// on fixed answers, `304` for a revalidation, `206`/`416` for a range, decided by the engine.
@Suite struct ConditionalAnswerTests {
    static let body = String((0..<1000).map { Character(UnicodeScalar(UInt8(65 + $0 % 26))) })

    func engine(_ manifest: String = "") throws -> StubEngine {
        var files = ["file.txt": Self.body, "other.txt": "other"]
        if !manifest.isEmpty { files["stubd.yml"] = manifest }
        return try StubEngine(catalog: TempStubs(files).load())
    }

    func ask(_ engine: StubEngine, _ headers: HTTPFields, method: HTTPRequest.Method = .get) -> (status: Int, headers: HTTPFields, body: Data) {
        ask(engine, "/file.txt", method: method, headers: headers)
    }

    func ask(_ engine: StubEngine, _ path: String, _ headers: HTTPFields) -> (status: Int, headers: HTTPFields, body: Data) {
        ask(engine, path, method: .get, headers: headers)
    }

    func ask(_ engine: StubEngine, _ path: String = "/file.txt", method: HTTPRequest.Method = .get,
             headers: HTTPFields = [:], session: String = "s") -> (status: Int, headers: HTTPFields, body: Data) {
        let outcome = engine.respond(to: RequestHead(method: method, path: path, headers: headers), in: engine.session(session))
        switch outcome.answer {
        case .canned(let canned, let extra): return (outcome.status.code, canned.headers + extra.list, canned.body)
        case .generated(let g): return (outcome.status.code, g.headers, g.body)
        }
    }

    @Test func aFixedAnswerCarriesValidatorsStableForItsContent() throws {
        let first = ask(try engine(), session: "a"), again = ask(try engine(), session: "b")
        let tag = try #require(first.headers[.eTag])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18)
        #expect(again.headers[.eTag] == tag, "the same content, loaded again, keeps its tag")
        #expect(ask(try engine(), "/other.txt").headers[.eTag] != tag)
        #expect(first.headers[.acceptRanges] == "bytes")
        let date = try #require(first.headers[.lastModified])
        #expect(HTTPDate.parse(Substring(date)) != nil, "\(date) is an IMF-fixdate")
    }

    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        for seconds in [0, 951_782_400, 1_709_164_800, 4_102_444_799] { #expect(HTTPDate.parse(Substring(HTTPDate.format(seconds))) == seconds) }
    }

    @Test func ifNoneMatchWithTheTagGetsA304WithoutContent() throws {
        let engine = try engine()
        let tag = try #require(ask(engine).headers[.eTag])
        for sent in [tag, "W/" + tag, "\"nope\", " + tag, "*"] {
            let r = ask(engine, [.ifNoneMatch: sent])
            #expect(r.status == 304, "If-None-Match: \(sent)")
            #expect(r.body.isEmpty && r.headers[.eTag] == tag && r.headers[.contentType] == nil)
        }
        #expect(ask(engine, [.ifNoneMatch: "\"0000000000000000\""]).status == 200)
        // Only GET and HEAD are revalidated; HEAD gets the 304 too.
        #expect(ask(engine, [.ifNoneMatch: tag], method: .head).status == 304)
    }

    @Test func ifModifiedSinceComparesWithLastModified() throws {
        let engine = try engine()
        let date = try #require(ask(engine).headers[.lastModified])
        #expect(ask(engine, [.ifModifiedSince: date]).status == 304)
        let earlier = HTTPDate.format(HTTPDate.parse(Substring(date))! - 1)
        #expect(ask(engine, [.ifModifiedSince: earlier]).status == 200)
        #expect(ask(engine, [.ifModifiedSince: "yesterday"]).status == 200, "an unreadable date is ignored")
        // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
        #expect(ask(engine, [.ifModifiedSince: date, .ifNoneMatch: "\"other\""]).status == 200)
    }

    @Test func aRangeGetsA206OrA416() throws {
        let engine = try engine()
        let bytes = Array(Self.body.utf8)
        let first = ask(engine, [.range: "bytes=0-99"])
        #expect(first.status == 206 && Array(first.body) == Array(bytes[0..<100]))
        #expect(first.headers[.contentRange] == "bytes 0-99/1000")
        let tail = ask(engine, [.range: "bytes=-10"])
        #expect(tail.status == 206 && Array(tail.body) == Array(bytes[990...]) && tail.headers[.contentRange] == "bytes 990-999/1000")
        let open = ask(engine, [.range: "bytes=900-99999999999999999999999"])
        #expect(open.status == 206 && open.body.count == 100, "a number past Int.max reads as the end")
        let past = ask(engine, [.range: "bytes=1000-"])
        #expect(past.status == 416 && past.body.isEmpty && past.headers[.contentRange] == "bytes */1000")
        // Several ranges, another unit, or nonsense: the whole body, as RFC 9110 §14.2 allows.
        for ignored in ["bytes=0-1,5-6", "items=0-1", "bytes=5-1", "bytes=x-"] {
            #expect(ask(engine, [.range: ignored]).status == 200, "Range: \(ignored)")
        }
        // A range for a POST is ignored; If-Range naming old content sends the whole new one.
        #expect(ask(engine, [.range: "bytes=0-9"], method: .post).status == 405)
        #expect(ask(engine, [.range: "bytes=0-9", .ifRange: "\"0000000000000000\""]).status == 200)
        let tag = try #require(first.headers[.eTag])
        #expect(ask(engine, [.range: "bytes=0-9", .ifRange: tag]).status == 206)
    }

    @Test func answersWithoutFixedContentCarryNoValidators() throws {
        let engine = try engine("""
            routes:
              - { request: { path: /t }, response: { template: true, body: "{{request.path}}" } }
              - { request: { path: /created }, response: { status: 201, body: made } }
              - { request: { path: /own }, response: { body: x, headers: { ETag: "\\"v1\\"" } } }
            """)
        #expect(ask(engine, "/t").headers[.eTag] == nil)
        #expect(ask(engine, "/created").headers[.eTag] == nil)
        #expect(ask(engine, "/own").headers[.eTag] == "\"v1\"", "a stub's own ETag is kept")
        #expect(ask(engine, "/own", [.ifNoneMatch: "\"v1\""]).status == 304)
    }

    @Test func aQuotaCountsA304UnlessItSaysNotModifiedFree() throws {
        let engine = try engine("""
            quotas:
              - { name: counted, routes: ["GET /file.txt"], limits: ["2/minute"] }
              - { name: free, routes: ["GET /other.txt"], limits: ["2/minute"], notModified: free }
            clock: { virtual: "2016-10-11T14:00:00Z" }
            """)
        for (path, expected) in [("/file.txt", [200, 304, 429, 429]), ("/other.txt", [200, 304, 304, 304])] {
            let tag = try #require(ask(engine, path).headers[.eTag])
            let statuses = (0..<3).map { _ in ask(engine, path, [.ifNoneMatch: tag]).status }
            #expect([200] + statuses == expected, "\(path)")
        }
        // GitHub's quotas do not count conditional requests that get a 304.
        let github = try self.engine("""
            quotas:
              - { name: gh, routes: ["GET /file.txt"], limits: ["1/hour"], exceeded: { profile: github } }
            """)
        let tag = try #require(ask(github, "/file.txt").headers[.eTag])
        #expect((0..<3).map { _ in ask(github, [.ifNoneMatch: tag]).status } == [304, 304, 304])
        #expect(ask(github).status == 403 || ask(github).status == 429)
    }

    @Test func notModifiedOtherThanAWordIsRefusedAtItsLine() throws {
        #expect(throws: (any Error).self) {
            _ = try TempStubs(["stubd.yml": """
                quotas:
                  - { name: q, routes: ["GET /x"], limits: ["1/minute"], notModified: never }
                """]).load()
        }
    }
}
