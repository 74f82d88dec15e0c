import Foundation
import HTTPTypes
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// Issue 63: a file per operation, as the rest of stubd has a file per path.
/// `Stubs/<endpoint>/<Operation>.graphql.json` answers the operation on `/<endpoint>`, by GET or
/// POST; the `.graphql` infix (as `.POST.` names a method) keeps `graphql/GetWeather.json` what it was.
@Suite struct GraphQLConventionTests {
    private let files = [
        "graphql/GetWeather.graphql.json": #"{"data":{"weather":{"tempC":21}}}"#,
        "graphql/Me.graphql.json": #"{"data":{"me":{"name":"Ada"}}}"#,
        "graphql.POST.json": #"{"errors":[{"message":"no stub for this operation"}]}"#,
        "graphql/Plain.json": #"{"plain":true}"#,
    ]

    @Test func aFilePerOperationAnswersItOnTheFoldersPath() throws {
        let h = try EngineHarness(TempStubs(files))
        let post = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"],
                            body: #"{"operationName":"GetWeather","query":"query GetWeather { weather { tempC } }"}"#)
        #expect(post.text == #"{"data":{"weather":{"tempC":21}}}"#, "\(post.text)")
        let get = h.http("/graphql?query=query%20Me%20%7B%20me%20%7B%20name%20%7D%20%7D")
        #expect(get.text.contains("Ada"), "the query's only operation names it: \(get.text)")
        let other = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"],
                             body: #"{"operationName":"Forecast","query":"query Forecast { f }"}"#)
        #expect(other.text.contains("no stub for this operation"), "the catch-all answers what no operation's file does: \(other.text)")
        #expect(h.http("/graphql/Plain").text == #"{"plain":true}"#, "a plain file under graphql/ is still a path")
    }

    @Test func hitsAndCoverageNameTheOperation() throws {
        let h = try EngineHarness(TempStubs(files))
        _ = h.answer("/graphql", method: .post, headers: ["Content-Type": "application/json"],
                     body: #"{"operationName":"GetWeather","query":"query GetWeather { weather { tempC } }"}"#)
        #expect(try h.hits("graphql GetWeather on /graphql") == 1)
        #expect(try h.hits("graphql Me on /graphql") == 0)
        let coverage = h.admin(.get, "coverage").text
        #expect(coverage.contains(#""route":"graphql Me on /graphql""#), "\(coverage)")
    }

    @Test func aFileNamedAfterNoOperationIsALoadProblem() throws {
        let stubs = try TempStubs(["graphql/9Lives.graphql.json": "{}"])
        #expect(throws: CatalogLoadError.self) { try StubCatalog.load(stubs: stubs.url) }
        do { _ = try StubCatalog.load(stubs: stubs.url) } catch {
            #expect(error.problems.first?.message.contains("'9Lives' is not a GraphQL operation name") == true, "\(error.problems)")
        }
    }
}
