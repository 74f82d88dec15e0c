/// RFC 7396: an object patch sets its members, `null` removes one, and anything else replaces the whole.
package enum JSONMergePatch {
    static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var fields: [String: JSONValue]
        if case .object(let existing) = target { fields = existing } else { fields = [:] }
        for (name, value) in changes {
            if value == .null {
                fields.removeValue(forKey: name)
            } else {
                fields[name] = apply(value, to: fields[name] ?? .null)
            }
        }
        return .object(fields)
    }
}
