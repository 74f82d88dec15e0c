import Foundation

extension APIContract {
    /// Every way `request` breaks its operation's parameters and body; nil when no operation of
    /// the spec takes it (that is the stubs' business, not the contract's).
    package func violations(of request: RequestHead) -> [RequestViolation]? {
        guard let (operation, pathValues) = operation(method: request.method, path: request.segments) else { return nil }
        var out: [RequestViolation] = []
        for parameter in operation.parameters {
            let location = "\(parameter.place.rawValue).\(parameter.name)"
            let value: String?
            switch parameter.place {
            case .path: value = pathValues[parameter.name]
            case .query: value = request.query.first { $0.name == parameter.name }.map { $0.value ?? "" }
            case .header: value = request.header(parameter.canonicalName)
            case .cookie: continue
            }
            guard let value else {
                if parameter.required {
                    out.append(RequestViolation(location: location, code: "required",
                                                message: "the \(parameter.place.rawValue) parameter '\(parameter.name)' is required"))
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            out += Self.check(value, against: schema, at: location)
        }
        if let body = operation.requestBody {
            if request.body.isEmpty {
                if body.required { out.append(RequestViolation(location: "body", code: "required", message: "a request body is required")) }
            } else if let type = request.header(.contentType),
                      ContentType.isJSON(mediaType: type), let media = body.media.first(where: { $0.accepts(type) != nil }),
                      let schema = media.schema {
                do {
                    let instance = try JSONParser.parse(request.body)
                    out += schema.validate(instance, limit: 20).map {
                        RequestViolation(location: "body" + $0.instancePath, code: $0.keyword, message: $0.message)
                    }
                } catch {
                    out.append(RequestViolation(location: "body", code: "json", message: "the body is not JSON: \(error.message)"))
                }
            }
        }
        return out
    }

    /// A parameter arrives as text: `5` is the number 5 to an integer schema and the string "5" to a
    /// string one, so the text is tried as what it spells before it is judged as a string.
    private static func check(_ text: String, against schema: JSONSchema, at location: String) -> [RequestViolation] {
        var candidates: [JSONValue] = []
        if let number = Double(text), number.isFinite { candidates.append(.number(number)) }
        if text == "true" || text == "false" { candidates.append(.bool(text == "true")) }
        if candidates.contains(where: { schema.isValid($0) }) { return [] }
        return schema.validate(.string(text), limit: 5).map {
            RequestViolation(location: location + $0.instancePath, code: $0.keyword, message: $0.message)
        }
    }
}
