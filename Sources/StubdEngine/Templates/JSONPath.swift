/// The subset of JSONPath that WireMock's examples use: `$.a.b`, `$['a']`, `$.items[0]`, `$.items[*].name`.
package enum JSONPath {
    static func select(_ expression: String, in root: JSONValue) -> JSONValue? {
        var steps: [String] = []
        var chars = Substring(expression)
        if chars.first == "$" { chars.removeFirst() }
        while let c = chars.first {
            if c == "." {
                chars.removeFirst()
                let name = chars.prefix { $0 != "." && $0 != "[" }
                chars.removeFirst(name.count)
                if !name.isEmpty { steps.append(String(name)) }
            } else if c == "[" {
                guard let close = chars.firstIndex(of: "]") else { return nil }
                var inside = chars[chars.index(after: chars.startIndex)..<close]
                if inside.first == "'" || inside.first == "\"" { inside = inside.dropFirst().dropLast() }
                steps.append(String(inside))
                chars = chars[chars.index(after: close)...]
            } else {
                let name = chars.prefix { $0 != "." && $0 != "[" }
                chars.removeFirst(name.count)
                steps.append(String(name))
            }
        }
        // Each step is a level of the document, and a parsed one has at most 512: a longer path
        // (from a request value) can find nothing, and is not walked one recursion per step.
        guard steps.count <= 512 else { return nil }
        return select(steps[...], in: root)
    }

    private static func select(_ steps: ArraySlice<String>, in value: JSONValue) -> JSONValue? {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        if step == "*" {
            let children: [JSONValue]
            switch value {
            case .array(let items): children = items
            case .object(let members): children = members.keys.sorted().map { members[$0]! }
            default: return nil
            }
            return .array(children.compactMap { select(rest, in: $0) })
        }
        guard let next = TemplateRenderer.descend(value, [step]) else { return nil }
        return select(rest, in: next)
    }
}
