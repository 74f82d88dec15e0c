import Foundation
import StubdEngine

/// One spec imported into a Stubs folder, as `.stubd-import.json` remembers it: a folder may hold
/// several (`openapi import --add`), each with the files its import wrote and its part of `stubd.yml`,
/// so importing one again rewrites its part and keeps the others'.
package struct ImportedSpec: Equatable {
    /// The spec's file name, as `stubd openapi import` was given it.
    package var name: String
    /// Paths (relative to the folder) its import wrote, `stubd.yml` aside.
    package var files: [String]
    /// Its routes in `stubd.yml` (the text under `routes:`); nil in a record written before specs were
    /// recorded, which cannot be combined with another spec's.
    package var routes: String?
    package var routeCount: Int

    package init(name: String, files: [String], routes: String?, routeCount: Int) {
        self.name = name
        self.files = files
        self.routes = routes
        self.routeCount = routeCount
    }

    /// The operation folders (`__files/NAME/…`) it uses, which another spec's import must not reuse.
    package var folderNames: Set<String> {
        Set(files.compactMap { path in
            let parts = path.split(separator: "/")
            return parts.count >= 3 && parts[0] == "__files" ? String(parts[1]) : nil
        })
    }

    var json: JSONValue {
        var members: [String: JSONValue] = ["files": .array(files.sorted().map(JSONValue.string)), "routeCount": .number(Double(routeCount))]
        if let routes { members["routes"] = .string(routes) }
        return .object(members)
    }

    init?(name: String, json: JSONValue) {
        guard case .object(let m) = json, case .array(let list)? = m["files"] else { return nil }
        self.name = name
        self.files = list.compactMap { if case .string(let s) = $0 { s } else { nil } }
        if case .string(let r)? = m["routes"] { routes = r } else { routes = nil }
        if case .number(let n)? = m["routeCount"] { routeCount = Int(n) } else { routeCount = 0 }
    }
}
