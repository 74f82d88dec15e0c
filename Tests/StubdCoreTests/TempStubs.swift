import Foundation
@testable import StubdCore

/// A throwaway Stubs directory built from a dictionary of relative path → contents.
struct TempStubs {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, contents) in files { try write(path, contents) }
    }

    func write(_ path: String, _ contents: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
    }

    func load() throws -> StubCatalog { try StubCatalog.load(stubs: url) }

    /// The problems a load reports (fails the caller when it loads cleanly).
    func problems() -> [LoadProblem] {
        do { _ = try StubCatalog.load(stubs: url); return [] } catch { return error.problems }
    }
}

extension StubCatalog {
    /// The route answering `method path?query`, or nil.
    func route(_ method: String, _ target: String, headers: [(name: String, value: String)] = [], body: String = "") -> Route? {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { item -> (name: String, value: String?) in
            let kv = item.split(separator: "=", maxSplits: 1)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]) : nil)
        } : []
        let request = RequestHead(method: method, path: String(parts[0]), query: query, headers: headers, body: Data(body.utf8))
        if case .matched(let route, _) = match(request) { return route }
        return nil
    }
}
