package import Foundation
package import StubdEngine

/// An XML body read as the JSON value its schema describes, so the JSON Schema evaluator judges it as
/// it judges JSON: elements and attributes become members by the names `XMLRenderer` writes them
/// under (OpenAPI's `xml` object), repeated or wrapped elements an array, and a text a number or a
/// boolean where the schema's `type` says so. A text that does not read as its type stays a string,
/// so the evaluator says what was expected (`expected an integer, got the string "ten"`).
///
/// A null is `xsi:nil="true"` (with that prefix), or an empty element where the schema allows null
/// and is no string's. Not read: mixed content (text beside child elements: the text is dropped), namespaces (names are
/// matched by local name, whatever their prefix or namespace), and the root element's name (any
/// name is taken: clients rarely check it, and specs often leave it unnamed).
package enum XMLBodyDecoder {
    /// The value an XML document stands for, or where it is not one stubd reads.
    package static func value(of body: Data, guide: XMLSchemaGuide?, limits: XMLLimits = .standard) throws(XMLSyntaxError) -> JSONValue {
        value(of: try XMLReader.parse(body, limits: limits), guide: guide)
    }

    /// The value `root` stands for under `guide` (nil: a schema that says nothing, read by shape).
    package static func value(of root: XMLReader.Element, guide: XMLSchemaGuide?) -> JSONValue {
        value(of: root, guide)
    }

    private static func value(of element: XMLReader.Element, _ guide: XMLSchemaGuide?) -> JSONValue {
        // `xsi:nil="true"` (by that prefix: namespaces are not resolved) is a null, as the renderer writes one.
        if element.children.isEmpty, element.attributes.contains(where: { $0.name == "xsi:nil" && $0.value == "true" }) { return .null }
        let types = guide?.types ?? []
        if types.contains("array") && !types.contains("object") {
            // An element read as an array is its wrapper: every child element an item.
            let items = guide?.items
            return .array(element.children.map { value(of: $0, items) })
        }
        let readAsObject = types.contains("object") || (types.isEmpty && (!element.children.isEmpty || !element.attributes.isEmpty))
        guard readAsObject else { return scalar(element.text, guide: guide, empty: element.children.isEmpty && element.attributes.isEmpty) }
        var members: [String: JSONValue] = [:]
        var attributes = element.attributes.filter { $0.name != "xmlns" && !$0.name.hasPrefix("xmlns:") && !$0.name.hasPrefix("xsi:") }
        var children = element.children
        for key in guide?.propertyNames ?? [] {
            guard let property = guide?.property(key) else { continue }
            let name = XMLName.sanitized(property.hints.name ?? key)
            if property.hints.attribute {
                if let i = attributes.firstIndex(where: { XMLName.local($0.name) == name }) {
                    members[key] = scalar(attributes[i].value, guide: property, empty: false)
                    attributes.remove(at: i)
                }
                continue
            }
            let propertyTypes = property.types
            if propertyTypes.contains("array") && !propertyTypes.contains("object") {
                let items = property.items
                if property.hints.wrapped {
                    guard let i = children.firstIndex(where: { XMLName.local($0.name) == name }) else { continue }
                    members[key] = value(of: children.remove(at: i), property)
                } else {
                    // Unwrapped: the object's elements named as the items (their `xml.name`, else the member).
                    let itemName = items?.hints.name.map(XMLName.sanitized) ?? name
                    let found = children.filter { XMLName.local($0.name) == itemName }
                    guard !found.isEmpty else { continue }
                    children.removeAll { XMLName.local($0.name) == itemName }
                    members[key] = .array(found.map { value(of: $0, items) })
                }
                continue
            }
            let found = children.filter { XMLName.local($0.name) == name }
            guard !found.isEmpty else { continue }
            children.removeAll { XMLName.local($0.name) == name }
            // One element is the member; several are an array, which the schema then refuses by its type.
            members[key] = found.count == 1 ? value(of: found[0], property) : .array(found.map { value(of: $0, property) })
        }
        // What the schema does not name is kept under its own name, so `additionalProperties: false` sees it.
        for attribute in attributes where members[XMLName.local(attribute.name)] == nil {
            members[XMLName.local(attribute.name)] = .string(attribute.value)
        }
        var undeclared: [String: [JSONValue]] = [:]
        var order: [String] = []
        for child in children {
            let name = XMLName.local(child.name)
            if undeclared[name] == nil { order.append(name) }
            undeclared[name, default: []].append(value(of: child, nil))
        }
        for name in order where members[name] == nil {
            let values = undeclared[name]!
            members[name] = values.count == 1 ? values[0] : .array(values)
        }
        return .object(members)
    }

    /// A text as the schema's type reads it: an integer or number where the text is one, `true`/`false`
    /// (and XML Schema's `1`/`0`) for a boolean, an empty element as null where null is allowed, else
    /// the text as it is.
    private static func scalar(_ text: String, guide: XMLSchemaGuide?, empty: Bool) -> JSONValue {
        guard let guide else { return .string(text) }
        let types = guide.types
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if empty, trimmed.isEmpty, guide.allowsNull, !types.contains("string") { return .null }
        if types.contains("integer") || types.contains("number"), let n = number(trimmed) { return .number(n) }
        if types.contains("boolean") {
            switch trimmed {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: break
            }
        }
        return .string(text)
    }

    /// A decimal number as JSON writes one (and XML Schema: a leading `+` taken), finite; nil for `0x10`, `inf`, `1_000`.
    private static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }),
              let n = Double(text), n.isFinite else { return nil }
        return n
    }
}
