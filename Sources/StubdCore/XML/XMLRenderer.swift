package import StubdEngine

/// A JSON value (a spec's example, or a body sampled from its schema) written as the XML document
/// its schema describes, OpenAPI's `xml` object deciding the names: an element per member, named by
/// `xml.name` or else the member's name; `attribute: true` members as attributes; an array's items as
/// repeated elements, inside one named for the array when `wrapped: true`; `prefix` and `namespace`
/// as written, each namespace declared where it first applies; a null as `xsi:nil="true"`.
///
/// Members are written attributes first, then in the order of their names: the spec is read as
/// JSON, whose objects keep no order. `XMLBodyDecoder` reads what this writes back to the same value.
package struct XMLRenderer {
    /// The root element's name when the schema has neither `xml.name` nor a component name (an inline schema).
    package static let defaultRootName = "root"
    /// A root array's items' name when neither their `xml.name` nor their component names them.
    package static let defaultItemName = "item"

    /// The namespace of `xsi:nil`, which a null is written with.
    static let schemaInstance = "http://www.w3.org/2001/XMLSchema-instance"

    private var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    /// The whole document, with its XML declaration and a final newline.
    package static func document(_ value: JSONValue, guide: XMLSchemaGuide?) -> String {
        var renderer = XMLRenderer()
        let hints = guide?.hints ?? .init()
        let rootName = XMLName.qualified(hints.name ?? guide?.componentName ?? defaultRootName, prefix: hints.prefix)
        // A document has one root element, so a root array is wrapped whatever `wrapped` says.
        renderer.element(rootName, value, guide: guide, depth: 0, scope: [:], rootItems: true)
        return renderer.out
    }

    /// Writes the element `name` holding `value`, at `depth` levels of indentation. `scope`: the
    /// namespaces declared by the elements around it, by prefix (`""` for the default one).
    private mutating func element(_ name: String, _ value: JSONValue, guide: XMLSchemaGuide?, depth: Int,
                                  scope: [String: String], rootItems: Bool = false, itemName: String? = nil) {
        let indent = String(repeating: "  ", count: depth)
        var scope = scope
        var attributes = ""
        if let hints = guide?.hints, let namespace = hints.namespace {
            let prefix = hints.prefix.map(XMLName.sanitized) ?? ""
            if scope[prefix] != namespace {
                scope[prefix] = namespace
                attributes += " " + (prefix.isEmpty ? "xmlns" : "xmlns:" + prefix) + "=\"" + Self.escaped(namespace, inAttribute: true) + "\""
            }
        }
        switch value {
        case .object(let members):
            var children: [(key: String, value: JSONValue, guide: XMLSchemaGuide?)] = []
            for key in members.keys.sorted() {
                let member = guide?.property(key)
                if let member, member.hints.attribute, let text = Self.scalarText(members[key]!) {
                    attributes += " " + XMLName.qualified(member.hints.name ?? key, prefix: member.hints.prefix)
                        + "=\"" + Self.escaped(text, inAttribute: true) + "\""
                } else {
                    children.append((key, members[key]!, member))
                }
            }
            guard !children.isEmpty else { out += indent + "<" + name + attributes + "/>\n"; return }
            out += indent + "<" + name + attributes + ">\n"
            for child in children { self.member(child.key, child.value, guide: child.guide, depth: depth + 1, scope: scope) }
            out += indent + "</" + name + ">\n"
        case .array(let items):
            // An element holding an array is its wrapper: the items inside, each named for them.
            let itemGuide = guide?.items
            let itemHints = itemGuide?.hints ?? .init()
            let itemName = itemName ?? XMLName.qualified(itemHints.name ?? (rootItems ? itemGuide?.componentName : nil) ?? Self.defaultItemName,
                                                         prefix: itemHints.prefix)
            guard !items.isEmpty else { out += indent + "<" + name + attributes + "/>\n"; return }
            out += indent + "<" + name + attributes + ">\n"
            for item in items { element(itemName, item, guide: itemGuide, depth: depth + 1, scope: scope) }
            out += indent + "</" + name + ">\n"
        case .null:
            // XML Schema's nil, as JAXB and Jackson write it: an empty element would read as "".
            if scope["xsi"] != Self.schemaInstance { attributes += " xmlns:xsi=\"" + Self.schemaInstance + "\"" }
            out += indent + "<" + name + attributes + " xsi:nil=\"true\"/>\n"
        case .bool, .number, .string:
            out += indent + "<" + name + attributes + ">" + Self.escaped(Self.scalarText(value)!, inAttribute: false) + "</" + name + ">\n"
        }
    }

    /// Writes an object's member `key`: an array as repeated elements (wrapped when the schema says
    /// so), anything else as one element.
    private mutating func member(_ key: String, _ value: JSONValue, guide: XMLSchemaGuide?, depth: Int, scope: [String: String]) {
        let hints = guide?.hints ?? .init()
        let name = XMLName.qualified(hints.name ?? key, prefix: hints.prefix)
        guard case .array(let items) = value else {
            element(name, value, guide: guide, depth: depth, scope: scope)
            return
        }
        // Items are named by their `xml.name`, else as the member (OpenAPI: `<animals><animals>…`).
        let itemGuide = guide?.items
        let itemName = itemGuide?.hints.name.map { XMLName.qualified($0, prefix: itemGuide?.hints.prefix) } ?? name
        if hints.wrapped {
            element(name, value, guide: guide, depth: depth, scope: scope, itemName: itemName)
        } else {
            for item in items { element(itemName, item, guide: itemGuide, depth: depth, scope: scope) }
        }
    }

    private static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number: return value.serialized
        case .null, .array, .object: return nil
        }
    }

    /// Text or an attribute's value as XML reads it back: `&`, `<`, `>` (and in an attribute `"`
    /// and the white space a parser would normalize away) as references; a character XML 1.0 cannot
    /// hold even as a reference (most controls) as U+FFFD.
    static func escaped(_ text: String, inAttribute: Bool) -> String {
        if !text.unicodeScalars.contains(where: { needsEscape($0, inAttribute: inAttribute) }) { return text }
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\r": out += "&#13;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            case _ where !isXMLCharacter(c): out += "\u{FFFD}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func needsEscape(_ c: Unicode.Scalar, inAttribute: Bool) -> Bool {
        switch c {
        case "&", "<", ">", "\r": return true
        case "\"", "\n", "\t": return inAttribute
        default: return !isXMLCharacter(c)
        }
    }

    /// XML 1.0's Char production: what a document may hold at all.
    static func isXMLCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
