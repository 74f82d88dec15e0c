import Foundation
import HTTPTypes

/// A collection declared under `resources:` in stubd.yml: where it answers, its id field, and the
/// items every session starts with. Immutable; a session's items live in its `ResourceStore`.
package final class ResourceDefinition: Sendable {
    /// `todos`: names the routes (`todos.list`), the admin API's `/__stubd/resources/todos`, the client's handle.
    package let name: String
    /// The collection's path; `{param}` segments are parents (`/users/{userId}/todos`), each one's
    /// items kept apart and stamped with the parent's value in the field of that name.
    package let pattern: PathPattern
    package let idField: String
    package let idStrategy: ResourceIDStrategy
    package let total: ResourceTotalStyle
    /// What every session starts with, and comes back to on reset.
    package let seed: [JSONValue]
    /// Items one session may hold in this resource (all parents together): a 507 past it.
    package let maxItems: Int
    /// Bytes one item may take, as sent: a 413 past it.
    package let maxItemBytes: Int
    /// `stubd.yml:12`, for load problems and the route table.
    package let file: String
    package let line: Int

    /// What an item may grow to by a patch: `maxItemBytes` as written, and the nesting a body may have.
    var itemLimits: JSONLimits { JSONLimits(maxBytes: maxItemBytes, maxDepth: JSONLimits.parserDepth) }

    package static let defaultMaxItems = 100_000
    package static let defaultMaxItemBytes = 64 * 1024

    package init(name: String, pattern: PathPattern, idField: String = "id", idStrategy: ResourceIDStrategy = .increment,
                 total: ResourceTotalStyle = .header, seed: [JSONValue] = [], maxItems: Int = ResourceDefinition.defaultMaxItems,
                 maxItemBytes: Int = ResourceDefinition.defaultMaxItemBytes, file: String = "stubd.yml", line: Int = 0) {
        self.name = name
        self.pattern = pattern
        self.idField = idField
        self.idStrategy = idStrategy
        self.total = total
        self.seed = seed
        self.maxItems = maxItems
        self.maxItemBytes = maxItemBytes
        self.file = file
        self.line = line
        // Kept, not computed: every request on the resource reads them.
        parentNames = pattern.parameterNames
        let usable = !idField.isEmpty && idField.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        itemParameter = usable && !parentNames.contains(idField) ? idField : "itemId"
    }

    /// The parents' parameter names, in path order.
    package let parentNames: [String]

    /// The name of the item's own path parameter: the id field's, unless a parent took it.
    package let itemParameter: String

    /// The routes that answer for this resource, one per operation. `headers` (the manifest's
    /// `defaults.headers`, less `Content-Type`: a resource answers JSON or nothing) are kept as the
    /// routes' answer headers, which every answer then carries (`StubEngine.resourceOutcome`).
    func routes(priority: Int, headers: HTTPFields = [:]) -> [Route] {
        let kept = HTTPFields(headers.filter { $0.name != .contentType })
        let itemPattern = try! PathPattern(parsing: (pattern.text == "/" ? "" : pattern.text) + "/{\(itemParameter)}")
        return ResourceOperation.allCases.map { operation in
            Route(name: "\(name).\(operation.rawValue)", method: .only(operation.method),
                  pattern: operation.onItem ? itemPattern : pattern,
                  responses: [CannedResponse(status: .ok, headers: kept, body: Data(), validated: false)], priority: priority,
                  source: .manifest(file: file, line: line), resource: ResourceBinding(resource: self, operation: operation))
        }
    }

    /// Which parent's items a request is about: the parents' values in path order, joined.
    func parentKey(_ parameters: [String: String]) -> String {
        parentNames.isEmpty ? "" : parentNames.map { parameters[$0] ?? "" }.joined(separator: "\u{1F}")
    }

    /// The parent key of a seed item: the values of its parent fields, as text.
    func parentKey(of item: JSONValue) -> String {
        guard !parentNames.isEmpty, case .object(let fields) = item else { return "" }
        return parentNames.map { fields[$0].flatMap(ResourceDefinition.text) ?? "" }.joined(separator: "\u{1F}")
    }

    /// A scalar as the text a path or a query would carry: `7` for 7.0, `true`, `abc`; nil for the rest.
    package static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
            return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        default: return nil
        }
    }

    /// A path or query value as a field's value: a whole number stays a number (`/users/1` → 1).
    static func fieldValue(_ text: String) -> JSONValue {
        if let n = Int64(text), String(n) == text { return .number(Double(n)) }
        return .string(text)
    }

    /// Why `id` cannot name an item (it would read as another path), or nil.
    static func refusal(ofID id: String) -> String? {
        if id.isEmpty { return "an id may not be empty" }
        // One pass over the bytes: every request naming an item asks.
        var previousDot = false
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"): return "an id may not contain '/' or '\\': it would read as another path"
            case UInt8(ascii: ".") where previousDot: return "an id may not be '.' or contain '..': it would read as another path"
            case 0..<0x20, 0x7F: return "an id may not contain control characters"
            default: break
            }
            previousDot = byte == UInt8(ascii: ".")
        }
        if id == "." { return "an id may not be '.' or contain '..': it would read as another path" }
        return nil
    }
}
