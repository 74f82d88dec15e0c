import HTTPTypes
package import StubdEngine

/// One way a request breaks its operation in the spec: `location` is `query.units`, `path.city`,
/// `header.x-api-key` or `body/main/temp`; `code` is the failed keyword (`required`, `enum`, `type`...).
package struct RequestViolation: Sendable, Hashable {
    /// What `--validate requests=strict` answers for a violation, as the real API would.
    package enum Refusal: Sendable, Hashable {
        /// 422: a parameter or the body breaks its schema.
        case invalid
        /// 415: the body's media type is not one the operation takes (`accepted`; empty when it takes no body).
        case unsupportedMediaType(accepted: [String])
        /// 401: no credential the operation's `security` asks for; `challenges` are `WWW-Authenticate` values.
        case unauthenticated(challenges: [String])
    }

    package let location: String
    package let code: String
    package let message: String
    /// Nil for a note: something stubd could not check (a body of a media type it cannot read), said
    /// in every mode so nothing passes unseen, and never refused.
    package let refusal: Refusal?

    package init(location: String, code: String, message: String, refusal: Refusal? = .invalid) {
        self.location = location
        self.code = code
        self.message = message
        self.refusal = refusal
    }

    var json: JSONValue {
        .object(["location": .string(location), "code": .string(code), "message": .string(message)])
    }
}

extension GeneratedResponse {
    /// `--validate requests=strict`: problem+json with `validation[]{location, code, message}`, as
    /// Prism answers: 401 when a credential is missing (a real API asks who you are first), else
    /// 415 when the body is of a type the operation does not take, else 422.
    package static func requestViolations(_ violations: [RequestViolation], specName: String) -> GeneratedResponse {
        let title = "The request does not keep to \(specName)"
        func detail(_ first: RequestViolation) -> String {
            "\(first.location): \(first.message)" + (violations.count > 1 ? " (and \(violations.count - 1) more)" : "")
        }
        let listed: [String: JSONValue] = ["validation": .array(violations.map(\.json))]
        var challenges: [String] = []
        for v in violations { if case .unauthenticated(let c)? = v.refusal { challenges += c } }
        if let first = violations.first(where: { if case .unauthenticated? = $0.refusal { true } else { false } }) {
            var headers = HTTPFields()
            for challenge in challenges where !headers.contains(where: { $0.value == challenge }) {
                headers.append(HTTPField(name: .wwwAuthenticate, value: challenge))
            }
            return .problem(.unauthorized, title: title, detail: detail(first), extra: listed, headers: headers)
        }
        for v in violations {
            guard case .unsupportedMediaType(let accepted)? = v.refusal else { continue }
            var extra = listed
            extra["accepted"] = .array(accepted.map(JSONValue.string))
            return .problem(.unsupportedMediaType, title: title, detail: detail(v), extra: extra)
        }
        let first = violations.first { $0.refusal != nil } ?? violations[0]
        return .problem(422, title: title, detail: detail(first), extra: listed)
    }
}
