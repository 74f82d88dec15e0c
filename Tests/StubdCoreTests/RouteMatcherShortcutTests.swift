import HTTPTypes
import Foundation
import Testing
@testable import StubdCore
@testable import StubdEngine
import StubdCoreTestSupport

/// The literal shortcut (`LiteralShortcut`) must answer exactly as walking the tree does: random
/// catalogs of literal and patterned routes, methods, query conditions and priorities, each driven
/// with the same random requests through both paths (issue 25 item 5).
@Suite struct RouteMatcherShortcutTests {
    static let literalPaths = ["/a", "/a/b", "/a/b/c", "/b/x", "/b/y", "/c/d", "/w/now", "/w/now/later"]
    static let patternedPaths = ["/a/{id}", "/a/{id}/c", "/c/{name}", "/p/**", "/b/{k}/z", "/w/{when}"]
    static let methods = ["GET", "POST", "DELETE"]

    @Test func theShortcutAndTheTreePickTheSameRouteForRandomRequests() throws {
        var random = SplitMix(seed: 25)
        var compared = 0, shortcutAnswered = 0
        for catalogNumber in 0..<25 {
            var lines = ["routes:"]
            var used = Set<String>()
            let withPatterns = catalogNumber % 5 != 0   // some catalogs all literal: the shortcut answers everything it can
            for _ in 0..<14 {
                let pool = withPatterns && random.next() % 3 == 0 ? Self.patternedPaths : Self.literalPaths
                let path = pool[Int(random.next() % UInt64(pool.count))]
                let method = Self.methods[Int(random.next() % UInt64(Self.methods.count))]
                let condition = random.next() % 3 == 0 ? ", query: { q: \"1\" }" : ""
                let priority = Int(random.next() % 3)
                guard used.insert("\(method) \(path) \(condition) \(priority)").inserted else { continue }
                lines.append("  - { request: { method: \(method), path: \"\(path)\"\(condition) }, priority: \(priority), "
                             + "response: { status: 200, body: \"\(lines.count)\" } }")
            }
            let stubs = try TempStubs(["stubd.yml": lines.joined(separator: "\n"), "c/d.json": "{}", "conv/{id}.json": "{}"])
            let catalog = try stubs.load()
            let requestPaths = Self.literalPaths + ["/a/9", "/a/9/c", "/c/zzz", "/p/q/r", "/b/1/z", "/w/soon", "/c/d.json",
                                                    "/conv/1", "/conv/1.json", "/nothing", "/a//b/"]
            for _ in 0..<200 {
                let path = requestPaths[Int(random.next() % UInt64(requestPaths.count))]
                let method = (Self.methods + ["HEAD"])[Int(random.next() % 4)]
                let query = random.next() % 2 == 0 ? queryItems(["q": "1"]) : []
                let request = RequestHead(method: HTTPRequest.Method(method)!, path: path, query: query)
                let fast = catalog.matcher.match(request)
                let tree = catalog.matcher.match(request, takingShortcut: false)
                #expect(describe(fast) == describe(tree), "catalog \(catalogNumber), \(method) \(path) \(query.isEmpty ? "" : "?q=1"):\n\(lines.joined(separator: "\n"))")
                compared += 1
                if case .matched = fast, catalog.matcher.literalShortcutAnswers(request) { shortcutAnswered += 1 }
            }
        }
        #expect(shortcutAnswered > compared / 10, "the shortcut answered only \(shortcutAnswered) of \(compared): the test compares too little")
    }

    private func describe(_ result: MatchResult) -> String {
        switch result {
        case let .matched(route, parameters): return "matched \(route.key) \(parameters.sorted { $0.key < $1.key })"
        case let .wrongMethod(allowed, _): return "wrong method, allowed \(allowed)"
        case .notFound: return "not found"
        }
    }
}
