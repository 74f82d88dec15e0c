import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdProtocol
import HTTPTypes
import StubdCoreTestSupport

/// `.sse` files and `events:` lists: the events they hold, and every mistake placed at its line and column.
@Suite struct EventStreamParserTests {
    private func events(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [StreamEvent] {
        let parsed = EventStreamParser.parse(text)
        #expect(parsed.problems.isEmpty, sourceLocation: sourceLocation)
        return parsed.events
    }

    private func problems(_ text: String) -> [EventStreamSyntaxError] { EventStreamParser.parse(text).problems }

    @Test func theWireFormatsFieldsMakeEvents() throws {
        let parsed = events("""
            : a captured stream
            retry: 3000

            event: score
            id: 7
            data: {"home": 1,
            data:  "away": 0}

            data:no space after the colon
            data

            """)
        #expect(parsed.count == 3)
        #expect(parsed[0] == StreamEvent(retry: 3000))
        #expect(parsed[1] == StreamEvent(event: "score", data: "{\"home\": 1,\n \"away\": 0}", id: "7"))
        // One space after the colon is the separator; a bare `data` is an empty line of data.
        #expect(parsed[2].data == "no space after the colon\n")
        #expect(parsed[1].wireText == "event: score\nid: 7\ndata: {\"home\": 1,\ndata:  \"away\": 0}\n\n")
    }

    @Test func aDelayCommentWaitsBeforeItsEvent() throws {
        let parsed = events(": delay 200ms\ndata: a\n\n:delay 1.5s\nevent: b\ndata: b\n")
        #expect(parsed.map(\.delay) == [.fixed(.milliseconds(200)), .fixed(.milliseconds(1500))])
        // The last event needs no blank line after it, unlike a browser's reading of a cut stream.
        #expect(parsed[1].event == "b")
    }

    @Test(arguments: ["data: a\r\n\r\ndata: b\r\n", "data: a\r\rdata: b\r", "data: a\n\ndata: b"])
    func everyLineEndingTheFormatAllowsIsRead(text: String) throws {
        #expect(events(text).map(\.data) == ["a", "b"])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(events("\u{FEFF}data: x\n").first?.data == "x")
    }

    @Test(arguments: [
        ("data: a\nevnt: b\n", 2, 1, "unknown field 'evnt'", "did you mean 'event'?"),
        ("data: a\n\nretry: soon\n", 3, 8, "retry 'soon' is not a whole number", "retry: 3000"),
        ("data: a\n\n: delay fast\ndata: b\n", 3, 9, "'fast' is not a duration", "200ms"),
        ("data: a\n: delay 1s\n", 2, 1, "a delay inside an event", "above"),
        ("data: a\n\n: delay 1s\n", 3, 1, "with no event after it", "remove"),
        ("event: a\nevent: b\ndata: x\n", 2, 1, "a second 'event:' line", "blank line"),
        (": only a comment\n", 1, 1, "no events", "data: hello"),
    ] as [(String, Int, Int, String, String)])
    func malformedInputIsPlaced(text: String, line: Int, column: Int, message: String, hint: String) throws {
        let found = problems(text)
        #expect(found.count == 1, "\(found)")
        let p = try #require(found.first)
        #expect(p.line == line)
        #expect(p.column == column)
        #expect(p.message.contains(message), "\(p)")
        #expect(p.hint?.contains(hint) == true, "\(p)")
    }

    @Test func everyProblemIsReportedAtOnce() {
        #expect(problems("dta: a\n\nretry: x\n\nid: 1\nid: 2\n").map(\.line) == [1, 3, 6])
    }

    @Test func lastEventIDResumesAfterThatEventAndAnUnknownOneFromTheStart() {
        let stream = EventStream(events: [StreamEvent(data: "a", id: "1"), StreamEvent(data: "b", id: "2"), StreamEvent(data: "c")])
        #expect(stream.firstIndex(resumingAfter: "1") == 1)
        #expect(stream.firstIndex(resumingAfter: "2") == 2)
        #expect(stream.firstIndex(resumingAfter: "9") == 0)
        #expect(stream.firstIndex(resumingAfter: nil) == 0)
        #expect(EventStream(events: stream.events, ending: .drop(after: 2)).sendable(from: 2) == 1)
        #expect(EventStream(events: stream.events, ending: .stall(after: 1)).sendable(from: 0) == 1)
    }

    @Test func anSSEFileIsAStubAndItsMistakesNameTheFile() throws {
        let stubs = try TempStubs(["live/scores.sse": "data: 1\n\n: delay 1s\ndata: 2\n", "broken/feed.sse": "data: 1\n\nretyr: 5\n"])
        let p = try #require(stubs.problems().first)
        #expect(p.location == "broken/feed.sse:3:1")
        #expect(p.hint == "did you mean 'retry'?")
        try stubs.write("broken/feed.sse", "data: 1\n")
        let catalog = try stubs.load()
        let route = try #require(catalog.routes.first { $0.source == .convention(file: "live/scores.sse") })
        let answer = try #require(route.responses.first)
        #expect(answer.events?.events.map(\.data) == ["1", "2"])
        #expect(answer.headers[.contentType] == "text/event-stream; charset=utf-8")
        #expect(answer.headers[.cacheControl] == "no-cache")
        #expect(answer.body.isEmpty)
    }

    @Test func aManifestListsEventsOrNamesAnSSEFile() throws {
        let stubs = try TempStubs([
            "__files/chat.sse": "data: {\"delta\":\"Hi\"}\n\ndata: [DONE]\n",
            "stubd.yml": """
                routes:
                  - request: { method: POST, path: /v1/chat }
                    response: { file: chat.sse, dropAfter: 1 }
                  - request: { path: /ticks }
                    response:
                      headers: { X-Feed: ticks }
                      stallAfter: 2
                      events:
                        - { event: tick, id: "1", data: { n: 1 }, retry: 500 }
                        - { data: "two\\nlines", delay: 250ms }
                        - data: 3
                """])
        let catalog = try stubs.load()
        let chat = try #require(catalog.routes.first { $0.pattern.text == "/v1/chat" }?.responses.first?.events)
        #expect(chat.events.map(\.data) == ["{\"delta\":\"Hi\"}", "[DONE]"])
        #expect(chat.ending == .drop(after: 1))
        let ticks = try #require(catalog.routes.first { $0.pattern.text == "/ticks" }?.responses.first)
        let stream = try #require(ticks.events)
        #expect(stream.events[0] == StreamEvent(event: "tick", data: "{\"n\":1}", id: "1", retry: 500))
        #expect(stream.events[1].data == "two\nlines")
        #expect(stream.events[1].delay == .fixed(.milliseconds(250)))
        #expect(stream.events[2].data == "3")
        #expect(stream.ending == .stall(after: 2))
        #expect(ticks.headers[HTTPField.Name("X-Feed")!] == "ticks")
        #expect(ticks.headers[.contentType] == "text/event-stream; charset=utf-8")
    }

    @Test(arguments: [
        ("response: { events: [{ data: a }], body: x }", "a response that streams events has no body"),
        ("response: { events: { data: a } }", "events must be a list"),
        ("response: { events: [{ dat: a }] }", "unknown key 'dat' in an event"),
        ("response: { events: [{ data: a, delay: soon }] }", "not a duration"),
        ("response: { events: [{ data: a }], dropAfter: -1 }", "dropAfter must be 0 or more"),
        ("response: { events: [{ data: a }], dropAfter: 1, stallAfter: 1 }", "not both"),
        ("response: { body: x, stallAfter: 1 }", "a response that streams events has no body"),
        ("response: { file: nope.sse }", "file 'nope.sse' does not exist"),
    ] as [(String, String)])
    func aWrongStreamInTheManifestIsALoadError(response: String, message: String) throws {
        let stubs = try TempStubs(["stubd.yml": "routes:\n  - request: { path: /s }\n    \(response)\n"])
        let found = stubs.problems()
        #expect(found.contains { $0.message.contains(message) && $0.file == "stubd.yml" && $0.line != nil }, "\(found)")
    }

    @Test func aTemplatedEventsMistakeIsPlacedInTheManifest() throws {
        let stubs = try TempStubs(["stubd.yml": """
            routes:
              - request: { path: "/r/{room}" }
                response:
                  template: true
                  events:
                    - { data: "in {{request.path.rom}}" }
            """])
        let p = try #require(stubs.problems().first)
        #expect(p.location == "stubd.yml:6:25")
        #expect(p.message.contains("request.path.rom"), "\(p)")
    }

    @Test func anSSEFilesMistakeReachedFromTheManifestNamesThatFile() throws {
        let stubs = try TempStubs(["__files/feed.sse": "data: a\n\nretry: x\n",
                                   "stubd.yml": "routes:\n  - request: { path: /s }\n    response: { file: feed.sse }\n"])
        #expect(stubs.problems().map(\.location) == ["__files/feed.sse:3:8"])
    }
}
