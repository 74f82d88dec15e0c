/// One way a request breaks its operation in the spec: `location` is `query.units`, `path.city`,
/// `header.x-api-key` or `body/main/temp`; `code` is the failed keyword (`required`, `enum`, `type`...).
package struct RequestViolation: Sendable, Hashable {
    package let location: String
    package let code: String
    package let message: String

    var json: JSONValue {
        .object(["location": .string(location), "code": .string(code), "message": .string(message)])
    }
}

extension GeneratedResponse {
    /// `--validate requests=strict`: 422 problem+json with `validation[]{location, code, message}`, as Prism answers.
    package static func requestViolations(_ violations: [RequestViolation], specName: String) -> GeneratedResponse {
        let first = violations[0]
        return .problem(422, title: "The request does not keep to \(specName)",
                        detail: "\(first.location): \(first.message)" + (violations.count > 1 ? " (and \(violations.count - 1) more)" : ""),
                        extra: ["validation": .array(violations.map(\.json))])
    }
}
