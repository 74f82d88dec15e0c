import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// One set of rules for "METHOD /path" texts, whoever reads them (issue 25 item 4).
@Suite struct RouteQueryTests {
    private func target(_ text: String) -> String {
        switch RouteQuery.parse(text) {
        case .failure(let problem): return "problem \(problem)"
        case .success(let query):
            switch query.target {
            case .name(let name): return "name \(name)"
            case let .concrete(method, path): return "concrete \(method) \(path)"
            case let .pattern(method, pattern): return "pattern \(method) \(pattern)"
            }
        }
    }

    @Test func pathsWithAndWithoutAMethod() {
        #expect(target("GET /a/b") == "concrete GET /a/b")
        #expect(target("get /a/b") == "concrete GET /a/b")
        #expect(target("/a/b") == "concrete ANY /a/b")
        #expect(target("ANY /a/b") == "concrete ANY /a/b")
        #expect(target("GET  \t/a//b/") == "concrete GET /a/b", "spaces or tabs between, the path normalized as a request's")
        #expect(target("  POST /x  ") == "concrete POST /x")
    }

    @Test func patterns() {
        #expect(target("GET /api/{key}/**") == "pattern GET /api/{key}/**")
        #expect(target("/api/**") == "pattern ANY /api/**")
        #expect(target("GET /a/**/b").hasPrefix("problem badPattern"))
        #expect(target("GET /a/{").hasPrefix("problem badPattern"))
    }

    @Test func namesAndMistakes() {
        #expect(target("city-not-found") == "name city-not-found")
        #expect(target("city not found") == "name city not found", "a name may have spaces")
        #expect(target("FETCH /a") == "problem unknownMethod(\"FETCH\")")
        #expect(target("GET a/b").hasPrefix("problem badPattern"), "a known method before a path without its '/'")
    }
}
