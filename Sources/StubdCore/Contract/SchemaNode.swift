import StubdEngine

/// One compiled schema (a location in the schema document) and its keywords.
///
/// A class, so a `$ref` can point back at a node still being compiled: recursive schemas become
/// cycles in this graph instead of infinite trees. `keywords` is written once, by the compiler,
/// before the graph is handed out, and never again, hence `@unchecked Sendable`.
final class SchemaNode: @unchecked Sendable {
    /// `#/components/schemas/Weather/properties/main`, the node's place in its document.
    let location: String
    var keywords: [SchemaKeyword] = []

    init(location: String) {
        self.location = location
    }

    /// This node and every node that applies to the same value beside it, through `$ref`, `allOf`,
    /// `anyOf` and `oneOf`, each once (a cycle is followed once): what a schema's members, its
    /// types and a parameter's coercion read.
    var applicable: [SchemaNode] {
        var out: [SchemaNode] = []
        var pending = [self], seen: Set<ObjectIdentifier> = []
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            out.append(node)
            for keyword in node.keywords {
                switch keyword {
                case .ref(let target, _): pending.append(target)
                case .allOf(let all), .anyOf(let all, _), .oneOf(let all, _): pending += all
                default: break
                }
            }
        }
        return out
    }
}
