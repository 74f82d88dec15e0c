import Foundation
import HTTPTypes

/// RFC 6902: a list of operations (`add`, `remove`, `replace`, `move`, `copy`, `test`) applied in
/// order, all or nothing. A failed `test` or a path that is not there refuses the whole patch.
enum JSONPatch {
    static func apply(_ patch: JSONValue, to target: JSONValue) throws(ResourceRefusal) -> JSONValue {
        guard case .array(let operations) = patch else {
            throw conflict("a JSON Patch is an array of operations, like [{\"op\":\"replace\",\"path\":\"/title\",\"value\":\"x\"}]", status: .badRequest)
        }
        var document = target
        for (i, operation) in operations.enumerated() {
            guard case .object(let fields) = operation, case .string(let op)? = fields["op"], case .string(let pathText)? = fields["path"],
                  let path = pointer(pathText) else {
                throw conflict("operation \(i) needs an 'op' and a 'path' that is a JSON pointer (\"/title\")", status: .badRequest)
            }
            func value() throws(ResourceRefusal) -> JSONValue {
                guard let v = fields["value"] else { throw conflict("operation \(i) (\(op)) needs a 'value'", status: .badRequest) }
                return v
            }
            func from() throws(ResourceRefusal) -> [String] {
                guard case .string(let text)? = fields["from"], let tokens = pointer(text) else {
                    throw conflict("operation \(i) (\(op)) needs a 'from' JSON pointer", status: .badRequest)
                }
                return tokens
            }
            switch op {
            case "add": document = try add(try value(), at: path, in: document, i)
            case "remove": document = try remove(at: path, in: document, i).document
            case "replace":
                document = try remove(at: path, in: document, i).document
                document = try add(try value(), at: path, in: document, i)
            case "move":
                let source = try from()
                let (rest, moved) = try remove(at: source, in: document, i)
                document = try add(moved, at: path, in: rest, i)
            case "copy":
                guard let copied = JSONPointer.resolve(try from(), in: document) else {
                    throw conflict("operation \(i) (copy): 'from' names nothing in the item")
                }
                document = try add(copied, at: path, in: document, i)
            case "test":
                guard JSONPointer.resolve(path, in: document) == (try value()) else {
                    throw conflict("operation \(i) (test): the value at '\(pathText)' is not the one given")
                }
            default:
                throw conflict("operation \(i): unknown op '\(op)'; one of add, remove, replace, move, copy, test", status: .badRequest)
            }
        }
        return document
    }

    private static func pointer(_ text: String) -> [String]? {
        if text.isEmpty { return [] }
        guard text.hasPrefix("/") else { return nil }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    private static func add(_ value: JSONValue, at path: [String], in document: JSONValue, _ i: Int) throws(ResourceRefusal) -> JSONValue {
        guard let first = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch document {
        case .object(var fields):
            if rest.isEmpty { fields[first] = value; return .object(fields) }
            guard let inner = fields[first] else { throw conflict("operation \(i): '/\(first)' is not in the item") }
            fields[first] = try add(value, at: rest, in: inner, i)
            return .object(fields)
        case .array(var items):
            if rest.isEmpty {
                if first == "-" { items.append(value); return .array(items) }
                guard let at = Int(first), at >= 0, at <= items.count else { throw conflict("operation \(i): index '\(first)' is out of the array") }
                items.insert(value, at: at)
                return .array(items)
            }
            guard let at = Int(first), items.indices.contains(at) else { throw conflict("operation \(i): index '\(first)' is out of the array") }
            items[at] = try add(value, at: rest, in: items[at], i)
            return .array(items)
        default:
            throw conflict("operation \(i): '\(first)' goes into a value that is neither object nor array")
        }
    }

    private static func remove(at path: [String], in document: JSONValue, _ i: Int) throws(ResourceRefusal) -> (document: JSONValue, removed: JSONValue) {
        guard let first = path.first else { throw conflict("operation \(i): the whole item cannot be removed", status: .badRequest) }
        let rest = Array(path.dropFirst())
        switch document {
        case .object(var fields):
            guard let inner = fields[first] else { throw conflict("operation \(i): '/\(first)' is not in the item") }
            if rest.isEmpty { fields.removeValue(forKey: first); return (.object(fields), inner) }
            let (changed, removed) = try remove(at: rest, in: inner, i)
            fields[first] = changed
            return (.object(fields), removed)
        case .array(var items):
            guard let at = Int(first), items.indices.contains(at) else { throw conflict("operation \(i): index '\(first)' is out of the array") }
            if rest.isEmpty { let removed = items.remove(at: at); return (.array(items), removed) }
            let (changed, removed) = try remove(at: rest, in: items[at], i)
            items[at] = changed
            return (.array(items), removed)
        default:
            throw conflict("operation \(i): '\(first)' is inside a value that is neither object nor array")
        }
    }

    /// RFC 5789 §2.2: a patch that cannot apply to the item as it is, 409; one that is malformed, 400.
    private static func conflict(_ detail: String, status: HTTPResponse.Status = .conflict) -> ResourceRefusal {
        ResourceRefusal(status: status, title: "Patch not applied", detail: detail)
    }
}
