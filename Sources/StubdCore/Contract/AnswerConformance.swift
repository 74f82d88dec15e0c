package import Foundation
package import HTTPTypes
import StubdEngine

/// Holds one answer (status, headers, body) against its operation's response in the spec: the one
/// rule set a stub in the folder (`StubContractCheck`) and a live answer of the real API
/// (`stubd drift --spec`) are both judged by.
package enum AnswerConformance {
    /// `headerNames` lower-case; `contentType` as sent, nil when there is none.
    package static func violations(status: HTTPResponse.Status, headerNames: Set<String>, contentType: String?, body: Data,
                                   of operation: ContractOperation, in contract: APIContract) -> [AnswerViolation] {
        guard let response = operation.response(for: status) else {
            let declared = operation.responses.map(\.status).joined(separator: ", ")
            return [AnswerViolation(pointer: nil, message: "the spec declares no \(status.code) response for \(operation.signature)"
                                        + (declared.isEmpty ? "" : " (it declares \(declared))"),
                                    hint: "answer a status the spec declares, or add \(status.code) under \(operation.location)/responses")]
        }
        var found: [AnswerViolation] = []
        for header in response.requiredHeaders where !headerNames.contains(header.lowercased()) && header.lowercased() != "content-type" {
            found.append(AnswerViolation(pointer: nil, message: "no \(header) header, which the spec requires (\(response.location)/headers)",
                                         hint: "add \(header) to the answer's headers"))
        }
        if response.media.isEmpty {
            if !body.isEmpty {
                found.append(AnswerViolation(pointer: nil, message: "the spec declares no body for this response, and the answer has \(body.count) bytes",
                                             hint: "send no body, or declare its content at \(response.location)"))
            }
            return found
        }
        let declared = response.media.map(\.type).joined(separator: ", ")
        guard let contentType, let media = response.media(for: contentType) else {
            found.append(AnswerViolation(pointer: nil, message: "Content-Type \(contentType ?? "(none)") is not one the spec declares for this response (\(declared))",
                                         hint: "send Content-Type: \(response.media[0].type), or declare the type at \(response.location)/content"))
            return found
        }
        guard let schema = media.schema else { return found }
        if ContentType.isXML(mediaType: contentType), let guide = media.xml, guide.isStructured {
            // XML read as the JSON value its schema describes (OpenAPI's `xml` names), then judged as JSON is.
            let instance: JSONValue
            do { instance = try XMLBodyDecoder.value(of: body, guide: guide) } catch {
                found.append(AnswerViolation(pointer: nil, message: "the body is not XML stubd reads (\(error.message) at line \(error.line), column \(error.column))",
                                             hint: "the spec declares \(media.type)"))
                return found
            }
            for violation in schema.validate(instance) {
                let shown = violation.instancePath.isEmpty ? "the body" : violation.instancePath
                found.append(AnswerViolation(pointer: nil, message: "\(shown): \(violation.message)",
                                             hint: "the spec's rule: \(contract.location(of: violation.schemaPath))"))
            }
            return found
        }
        // JSON and XML bodies are held to a schema; the spec's other media types are taken on trust.
        guard ContentType.isJSON(mediaType: contentType) else { return found }
        // Numbers past 2^53 are kept as written: as Doubles, 9007199254740993 would pass `maximum: 9007199254740992`.
        let instance: JSONValue, literals: [String: NumberLiteral]
        do { (instance, literals) = try JSONParser.parseKeepingLiterals(body) } catch {
            found.append(AnswerViolation(pointer: nil, message: "the body is not JSON (\(error.message) at line \(error.line), column \(error.column))",
                                         hint: "the spec declares \(media.type)"))
            return found
        }
        for violation in schema.validate(instance, literals: literals) {
            let shown = violation.instancePath.isEmpty ? "the body" : violation.instancePath
            found.append(AnswerViolation(pointer: violation.instancePath, message: "\(shown): \(violation.message)",
                                         hint: "the spec's rule: \(contract.location(of: violation.schemaPath))"))
        }
        return found
    }

    /// The answer's `date-time` strings that keep to RFC 3339 but would not decode in a Swift client
    /// (`SwiftDateSpelling`): warnings of `stubd check --spec`, errors with `--swift-compatible`.
    package static func swiftDateWarnings(status: HTTPResponse.Status, contentType: String?, body: Data,
                                          of operation: ContractOperation) -> [AnswerViolation] {
        guard let contentType, ContentType.isJSON(mediaType: contentType), let response = operation.response(for: status),
              let schema = response.media(for: contentType)?.schema, let instance = try? JSONParser.parse(body) else { return [] }
        return schema.dateTimes(in: instance).compactMap { found in
            let shown = found.pointer.isEmpty ? "the body" : found.pointer
            // Found only where `--formats annotate-all` let the format pass.
            guard SchemaFormat.dateTime.accepts(.string(found.text)) else {
                return AnswerViolation(pointer: found.pointer, message: "\(shown): \"\(found.text)\" is not an RFC 3339 date-time, so a Swift client cannot decode it: JSONDecoder's .iso8601 and the generated client's transcoder both refuse it",
                                       hint: "write it as 2026-01-26T19:00:00Z or 2026-01-26T19:00:00+01:00")
            }
            return SwiftDateSpelling.problem(found.text).map { why in
                AnswerViolation(pointer: found.pointer, message: "\(shown): the date-time \"\(found.text)\" keeps to RFC 3339 but a Swift client cannot decode it: \(why)",
                                hint: "write it as 2026-01-26T19:00:00Z or 2026-01-26T19:00:00+01:00")
            }
        }
    }
}
