import Foundation
import HTTPTypes

/// RFC 6902: a list of operations (`add`, `remove`, `replace`, `move`, `copy`, `test`) applied in
/// order, all or nothing. A failed `test` or a path that is not there refuses the whole patch, and so
/// does a result past `limits`: checked at each operation, before the next one can double it.
package enum JSONPatch {
    /// The most operations one patch may carry.
    static let maxOperations = 100

    static func apply(_ patch: JSONValue, to target: JSONValue, within limits: JSONLimits) throws(ResourceRefusal) -> JSONValue {
        guard case .array(let operations) = patch else {
            throw conflict("a JSON Patch is an array of operations, like [{\"op\":\"replace\",\"path\":\"/title\",\"value\":\"x\"}]", status: .badRequest)
        }
        // Each operation may measure the whole item (up to maxItemBytes, ~2 ms at 64 KiB): a 1 MiB body of
        // 35,000 operations would hold the resource for over a minute. Real patches name a handful.
        guard operations.count <= maxOperations else {
            throw conflict("a JSON Patch has at most \(maxOperations) operations, this one \(operations.count); send it as several patches",
                           status: .badRequest)
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
            /// The value an operation puts at `path`, measured before it is put there: a copy of a large
            /// item into itself is refused without being made.
            func bounded(_ value: JSONValue) throws(ResourceRefusal) -> JSONValue {
                try check(limits.excess(of: value, atDepth: path.count), operation: i, op, limits)
                return value
            }
            switch op {
            case "add": document = try add(try bounded(try value()), at: path, in: document, i)
            case "remove": document = try remove(at: path, in: document, i).document
            case "replace":
                document = try remove(at: path, in: document, i).document
                document = try add(try bounded(try value()), at: path, in: document, i)
            case "move":
                let source = try from()
                let (rest, moved) = try remove(at: source, in: document, i)
                document = try add(try bounded(moved), at: path, in: rest, i)
            case "copy":
                guard let copied = JSONPointer.resolve(try from(), in: document) else {
                    throw conflict("operation \(i) (copy): 'from' names nothing in the item")
                }
                document = try add(try bounded(copied), at: path, in: document, i)
            case "test":
                guard JSONPointer.resolve(path, in: document) == (try value()) else {
                    throw conflict("operation \(i) (test): the value at '\(pathText)' is not the one given")
                }
            default:
                throw conflict("operation \(i): unknown op '\(op)'; one of add, remove, replace, move, copy, test", status: .badRequest)
            }
            // The value fitted; the item holding it may not (an item of 40 KB plus a copy of half of it).
            if op != "test" && op != "remove" { try check(limits.excess(of: document), operation: i, op, limits) }
        }
        return document
    }

    /// 422: the patch is well formed, but its result would be an item stubd does not keep.
    private static func check(_ excess: JSONLimits.Excess?, operation i: Int, _ op: String, _ limits: JSONLimits) throws(ResourceRefusal) {
        switch excess {
        case nil: return
        case .bytes?:
            throw conflict("operation \(i) (\(op)) would make the item larger than \(limits.maxBytes) bytes, the most an item of this resource may take (maxItemBytes); nothing was applied",
                           status: .unprocessableContent)
        case .depth?:
            throw conflict("operation \(i) (\(op)) would nest the item deeper than \(limits.maxDepth) levels, the most a JSON body may; nothing was applied",
                           status: .unprocessableContent)
        }
    }

    /// An array index as RFC 6901 writes it: `0`, or digits not starting with `0` (`01`, `+1`, `-0`
    /// and ` 1` are not indexes, though `Int` reads them): anything else is refused as malformed.
    private static func index(_ token: String, _ i: Int) throws(ResourceRefusal) -> Int {
        let digits = token.utf8
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              digits.first != UInt8(ascii: "0") || digits.count == 1 else {
            throw conflict("operation \(i): '\(token)' is not an array index: an index is 0 or a whole number without leading zeros (RFC 6901), or '-' to append",
                           status: .badRequest)
        }
        // More digits than an Int holds is past any array's end.
        return Int(token) ?? Int.max
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
                let at = try index(first, i)
                guard at <= items.count else { throw conflict("operation \(i): index '\(first)' is out of the array") }
                items.insert(value, at: at)
                return .array(items)
            }
            let at = try index(first, i)
            guard items.indices.contains(at) else { throw conflict("operation \(i): index '\(first)' is out of the array") }
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
            let at = try index(first, i)
            guard items.indices.contains(at) else { throw conflict("operation \(i): index '\(first)' is out of the array") }
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
