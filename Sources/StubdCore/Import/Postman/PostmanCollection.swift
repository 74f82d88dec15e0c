import Foundation
import StubdEngine

/// A Postman collection (v2.0 or v2.1, as Postman exports it) read whole and walked: every request
/// of every folder, with its saved example answers. A file that is not JSON or not a v2 collection
/// stops the import naming the file (and line and column, or the JSON pointer).
struct PostmanCollection {
    /// A request of the collection: its folder path, the item, and where it is.
    struct Request {
        var names: [String]
        var pointer: String
        var item: [String: JSONValue]
    }

    let name: String
    let requests: [Request]
    /// `variable[]`: name → value, for `{{name}}` in URLs.
    let variables: [String: String]

    static func load(_ url: URL, name: String, maxBytes: Int) throws(ImportError) -> PostmanCollection {
        let data = try ImportFile.read(url, name: name, kind: "a collection file", maxBytes: maxBytes)
        let json: JSONValue
        do { json = try JSONParser.parse(data) } catch {
            let end = error.message.contains("JSON ends") ? " (is the file truncated? export it again)" : ""
            throw ImportError("\(name):\(error.line):\(error.column): not JSON: \(error.message)\(end); nothing written")
        }
        guard case .object(let top) = json else { throw ImportError("\(name): not a Postman collection (the file is not a JSON object)") }
        if top["requests"] != nil, top["item"] == nil {
            throw ImportError("\(name): a Postman collection v1 (/requests); export it again from Postman as Collection v2.1; nothing written")
        }
        guard case .object(let info)? = top["info"], case .array(let items)? = top["item"] else {
            throw ImportError("\(name): not a Postman collection: a v2.0/v2.1 collection is {\"info\": {\"schema\": …}, \"item\": [...]}; nothing written")
        }
        if case .string(let schema)? = info["schema"], !schema.contains("/collection/v2") {
            throw ImportError("\(name):/info/schema: '\(schema.prefix(120))' is not Postman's collection v2.0 or v2.1 schema; nothing written")
        }
        var variables: [String: String] = [:]
        if case .array(let list)? = top["variable"] {
            for case .object(let v) in list {
                if case .string(let key)? = v["key"] ?? v["id"], case .string(let value)? = v["value"] { variables[key] = value }
            }
        }
        var requests: [Request] = []
        var problems: [String] = []
        func walk(_ items: [JSONValue], names: [String], pointer: String) {
            for (i, entry) in items.enumerated() {
                let at = "\(pointer)/\(i)"
                guard case .object(let item) = entry else { problems.append("\(name):\(at): an item must be an object"); continue }
                let title: String = if case .string(let n)? = item["name"] { n } else { "item \(i)" }
                if case .array(let children)? = item["item"] {
                    walk(children, names: names + [title], pointer: at + "/item")
                } else if item["request"] != nil {
                    requests.append(Request(names: names + [title], pointer: at, item: item))
                } else {
                    problems.append("\(name):\(at): neither a folder (item) nor a request")
                }
            }
        }
        walk(items, names: [], pointer: "/item")
        guard problems.isEmpty else { throw ImportError.all(problems) }
        let title: String = if case .string(let n)? = info["name"] { n } else { name }
        return PostmanCollection(name: title, requests: requests, variables: variables)
    }
}
