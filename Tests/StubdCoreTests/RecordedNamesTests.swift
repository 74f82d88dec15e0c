import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// How a recorded request becomes file names (issue 23 item 7), without a server.
@Suite struct RecordedNamesTests {
    func file(_ method: String, _ path: String, ext: String = "json", secrets: [String] = []) -> String? {
        RecordedNames.conventionFile(method: method, path: path, ext: ext, secretNames: secrets)
    }

    @Test func aPlainPathIsAFileAndTheMethodAnInfix() {
        #expect(file("GET", "/api/conditions/q/CA/San_Francisco.json") == "api/conditions/q/CA/San_Francisco.json")
        #expect(file("GET", "/data/2.5/weather") == "data/2.5/weather.json")
        #expect(file("POST", "/v1/reports") == "v1/reports.POST.json")
        #expect(file("GET", "/api/{key}/x.json", secrets: ["key"]) == "api/{key}/x.json")
    }

    @Test(arguments: ["/r.POST", "/r.POST.json", "/x.HEAD", "/bad.tmpl", "/t.tmpl.json", "/.well-known/x", "/a/.env",
                      "/__files/x", "/stubd.yml", "/q/{id}", "/a/**", "/long/" + String(repeating: "x", count: 201)])
    func aPathTheConventionWouldReadOtherwiseIsNoFile(path: String) {
        #expect(file("GET", path) == nil, "\(path)")
    }

    @Test func bracesAndWildcardsCannotBeAManifestPathEither() {
        #expect(RecordedNames.patternProblem("/q/{id}", secretNames: []) != nil)
        #expect(RecordedNames.patternProblem("/a/**", secretNames: []) != nil)
        #expect(RecordedNames.patternProblem("/api/{key}/x", secretNames: ["key"]) == nil)
        #expect(RecordedNames.patternProblem("/r.POST", secretNames: []) == nil)
    }

    @Test func aLongSegmentGetsAStableHashedBodyName() {
        let long = String(repeating: "é", count: 150)
        let a = RecordedNames.bodyFile(method: "GET", path: "/long/\(long)", key: "0123abcd", index: 1, ext: "json")
        #expect(a == RecordedNames.bodyFile(method: "GET", path: "/long/\(long)", key: "0123abcd", index: 1, ext: "json"))
        #expect(a.split(separator: "/").allSatisfy { $0.utf8.count <= 100 }, "\(a)")
        #expect(a.hasPrefix("long/éé") && a.hasSuffix("-get-0123abcd-1.json"))
        let b = RecordedNames.bodyFile(method: "GET", path: "/long/\(long)x", key: "0123abcd", index: 1, ext: "json")
        #expect(a != b, "two long segments that start alike share a name")
    }
}
