import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 63: `stubd record` writes a GraphQL request as a route of its operation (`graphql:
/// {operationName, variables}`, named after it), not as a match on its body's bytes, which a client
/// printing its query another way, or ordering its keys otherwise, would miss.
@Suite struct GraphQLRecordingTests {
    private func exchange(_ body: String, answer: String, path: String = "/graphql") -> RecordedExchange {
        RecordedExchange(method: .post, path: path, query: [], requestHeaders: fields(["Content-Type": "application/json"]),
                         requestBody: Data(body.utf8), status: .ok, responseHeaders: fields(["Content-Type": "application/json"]),
                         responseBody: Data(answer.utf8))
    }

    private static let getWeather = "query GetWeather($city: String!) { weather(city: $city) { city tempC } }"

    @Test func eachOperationAndItsVariablesIsARouteNamedAfterIt() throws {
        let stubs = try TempStubs([:])
        let recorder = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        for (city, temp) in [("Paris", 21), ("Oslo", 4)] {
            let outcome = recorder.record(exchange(#"{"operationName":"GetWeather","query":"\#(Self.getWeather)","variables":{"city":"\#(city)"}}"#,
                                                   answer: #"{"data":{"weather":{"city":"\#(city)","tempC":\#(temp)}}}"#))
            guard case .written = outcome else { Issue.record("\(city): \(outcome)"); return }
        }
        _ = recorder.record(exchange(#"{"operationName":"Me","query":"query Me { me { id } }","variables":{}}"#, answer: #"{"data":{"me":{"id":"1"}}}"#))

        let manifest = try String(contentsOf: stubs.url.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        let query = #"query: "query GetWeather($city: String!) { weather(city: $city) { city tempC } }""#
        #expect(manifest.contains(#"graphql: { operationName: "GetWeather", \#(query), variables: {"city":"Paris"} }"#), "\(manifest)")
        #expect(manifest.contains(#"graphql: { operationName: "GetWeather", \#(query), variables: {"city":"Oslo"} }"#), "\(manifest)")
        #expect(manifest.contains(#"graphql: { operationName: "Me", query: "query Me { me { id } }" }"#), "\(manifest)")
        #expect(!manifest.contains("body:"), "matched by operation, not by the body's bytes: \(manifest)")
        #expect(manifest.contains(#"name: "GetWeather""#) && manifest.contains(#"name: "GetWeather-2""#) && manifest.contains(#"name: "Me""#), "\(manifest)")

        // Asked as another client prints the query (spacing, the order of the body's keys): answered.
        let h = try EngineHarness(stubs)
        let oslo = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"],
                            body: #"{"variables":{"city":"Oslo"},"query":"query GetWeather($city: String!) {\n  weather(city: $city) {\n    city\n    tempC\n  }\n}","operationName":"GetWeather"}"#)
        #expect(oslo.status == 200 && oslo.text.contains(#""tempC":4"#), "\(oslo.status) \(oslo.text)")
        // Another selection is not the answer recorded: a miss, not an answer without its fields.
        let other = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"],
                             body: #"{"operationName":"GetWeather","query":"query GetWeather($city: String!) { weather(city: $city) { sky } }","variables":{"city":"Oslo"}}"#)
        #expect(other.status == 404, "\(other.status) \(other.text)")
    }

    @Test func whatIsNotANamedGraphQLOperationIsRecordedByItsBodyAsBefore() throws {
        let stubs = try TempStubs([:])
        let recorder = try StubsRecorder(root: stubs.url, rules: RecordingRules(), mode: .new)
        // A search API whose body has a "query" that is no GraphQL document, and an anonymous query.
        _ = recorder.record(exchange(#"{"query":"paris"}"#, answer: #"{"hits":[]}"#, path: "/search"))
        _ = recorder.record(exchange(#"{"query":"{ me { id } }"}"#, answer: #"{"data":{"me":{"id":"1"}}}"#))
        let manifest = try String(contentsOf: stubs.url.appendingPathComponent("stubd.recorded.yml"), encoding: .utf8)
        #expect(manifest.contains(#"body: { json: {"query":"paris"} }"#), "\(manifest)")
        #expect(manifest.contains(#"body: { json: {"query":"{ me { id } }"} }"#), "\(manifest)")
        #expect(!manifest.contains("graphql:"), "\(manifest)")
    }
}
