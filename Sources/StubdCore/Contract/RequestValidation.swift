import Foundation
package import StubdEngine

extension APIContract {
    /// Every way `request` breaks its operation's parameters and body; nil when no operation of
    /// the spec takes it (that is the stubs' business, not the contract's).
    package func violations(of request: RequestHead) -> [RequestViolation]? {
        guard let (operation, pathValues) = operation(method: request.method, path: request.segments) else { return nil }
        var out = securityViolations(of: request, for: operation)
        let reader = ParameterReader(pathValues: pathValues, query: request.query, headers: request.headers, parameters: operation.parameters)
        for parameter in operation.parameters {
            out += violations(of: parameter, reader.read(parameter))
        }
        out += Self.bodyViolations(of: request, for: operation)
        return out
    }

    /// How a parameter as read from the request breaks its declaration: absent when required, not
    /// written as its style says, or a value its schema refuses.
    private func violations(of parameter: ContractParameter, _ reading: ParameterReader.Reading) -> [RequestViolation] {
        let location = "\(parameter.place.rawValue).\(parameter.name)"
        switch reading {
        case .absent:
            guard parameter.required else { return [] }
            var message = "the \(parameter.place.rawValue) parameter '\(parameter.name)' is required"
            if case .object(let properties, _) = parameter.shape, parameter.explode, parameter.style != .deepObject,
               parameter.place == .query || parameter.place == .cookie, parameter.contentType == nil {
                // Exploded, the object's name is never sent: say what is.
                message += properties.isEmpty ? " (its members are sent as query items of their own)"
                    : " (sent as its members: " + properties.map { "\($0)=..." }.joined(separator: "&") + ")"
            }
            return [RequestViolation(location: location, code: "required", message: message)]
        case .malformed(let message):
            return [RequestViolation(location: location, code: "style", message: message)]
        case .text(let text):
            guard let schema = parameter.schema else { return [] }
            if let type = parameter.contentType, ContentType.isJSON(mediaType: type) {
                do {
                    let (instance, literals) = try JSONParser.parseKeepingLiterals(Data(text.utf8))
                    return schema.validate(instance, literals: literals, limit: 5).map {
                        RequestViolation(location: location + $0.instancePath, code: $0.keyword, message: $0.message)
                    }
                } catch {
                    return [RequestViolation(location: location, code: "json", message: "\(parameter.described) is not JSON: \(error.message)")]
                }
            }
            return Self.check(text, against: schema, at: location)
        case .value(let raw):
            guard let schema = parameter.schema else { return [] }
            // An item past 2^53 is judged on its digits, as a single value is (`check`).
            let (value, literals) = schema.coerceParameterKeepingLiterals(raw)
            return schema.validate(value, literals: literals, limit: 5).map {
                RequestViolation(location: location + $0.instancePath, code: $0.keyword, message: $0.message)
            }
        }
    }

    /// A parameter arrives as text: `5` is the number 5 to an integer schema and the string "5" to a
    /// string one, so the text is tried as what it spells before it is judged as a string.
    ///
    /// Only JSON's spelling of a number is one (`0x10`, `+5`, `.5` and `inf` are strings), and an
    /// integer is written in digits alone. `1.0` and `1e3` are integers by value to JSON Schema 2020-12
    /// inside a JSON body, and stay so there; but a query string is text, no client writes an integer
    /// parameter that way (URLComponents, the generated Swift and Java clients and OpenAPI's own
    /// examples write `1000`), and a server reading it with `Int(_:)` or `parseInt` would refuse or
    /// truncate it: to a schema that takes only integers, such text is a string and refused.
    ///
    /// A Double cannot tell Int64's maximum from 2^63 (every integer from 2^63 − 512 rounds to it),
    /// so an `int64` parameter's range is judged on its digits, exactly.
    private static func check(_ text: String, against schema: JSONSchema, at location: String) -> [RequestViolation] {
        var candidates: [JSONValue] = []
        if let spelled = Self.number(spelledBy: text) {
            let asserts = schema.numberAssertions
            if spelled.isInteger, asserts.int64, Int64(text) == nil, !schema.isValid(.string(text)) {
                return [RequestViolation(location: location, code: "format",
                                         message: "expected \(SchemaFormat.int64.expectation), got \(text)")]
            }
            if spelled.isInteger || !asserts.integerOnly { candidates.append(.number(spelled.value)) }
        }
        if text == "true" || text == "false" { candidates.append(.bool(text == "true")) }
        // Past 2^53 the digits are the number: its bounds are judged on them, not on a Double.
        var literals: [String: NumberLiteral] = [:]
        if case .number(let n)? = candidates.first, n.magnitude >= NumberLiteral.exactLimit { literals[""] = NumberLiteral(text) }
        if candidates.contains(where: { schema.validate($0, literals: literals, limit: 1).isEmpty }) { return [] }
        // The first reading of the right type is the one to report on: `5000` against 1...1000 breaks
        // `maximum`; that the string "5000" is not an integer says nothing the user can act on.
        let string = JSONValue.string(text)
        for candidate in candidates + [string] {
            let violations = schema.validate(candidate, literals: literals, limit: 5)
            if candidate == string || !violations.contains(where: { $0.keyword == "type" && $0.instancePath.isEmpty }) {
                return violations.map { RequestViolation(location: location + $0.instancePath, code: $0.keyword, message: $0.message) }
            }
        }
        return []
    }

    /// The value of `text` when it is a JSON number (RFC 8259's grammar, nothing else), and whether
    /// it is written as an integer.
    static func number(spelledBy text: String) -> (value: Double, isInteger: Bool)? {
        let b = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < b.count, b[i] == 0x2D { i += 1 }
        let intStart = i
        let intDigits = digits()
        guard intDigits > 0, intDigits == 1 || b[intStart] != 0x30 else { return nil }
        var isInteger = true
        if i < b.count, b[i] == 0x2E {
            i += 1
            guard digits() > 0 else { return nil }
            isInteger = false
        }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            guard digits() > 0 else { return nil }
            isInteger = false
        }
        guard i == b.count, let value = Double(text), value.isFinite else { return nil }
        return (value, isInteger)
    }
}
