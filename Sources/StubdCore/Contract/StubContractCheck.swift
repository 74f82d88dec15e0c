import Foundation
import HTTPTypes

/// Every stub answer of a catalog held against the spec: a stub that breaks its operation's response
/// is a load problem placed in the stub's file; a stub with no operation, or an operation with no
/// stub, is a notice.
package struct StubContractCheck: Sendable {
    /// Violations, each at the stub file's line and column of the offending value.
    package let problems: [LoadProblem]
    /// What is not an error but worth knowing: unmatched stubs, operations no stub answers, answers not checked.
    package let notices: [String]

    package init(catalog: StubCatalog, contract: APIContract) {
        var problems: [LoadProblem] = []
        var notices: [String] = []
        var covered: Set<String> = []
        for route in catalog.routes {
            if case .runtime = route.source { continue }
            guard let operation = contract.operation(for: route) else {
                notices.append("\(route.signature) (\(route.source)) matches no operation in \(contract.specName)")
                continue
            }
            covered.insert(operation.signature)
            for (step, answer) in route.responses.enumerated() {
                if answer.fault != nil || answer.quotaStatus != nil { continue }
                let place = route.responses.count > 1 ? " (answer \(step + 1) of \(route.responses.count))" : ""
                if answer.template != nil {
                    notices.append("\(route.signature) (\(route.source))\(place) is a template: its answers are not checked against \(contract.specName)")
                    continue
                }
                problems += Self.check(answer, of: route, against: operation, in: contract, place: place)
            }
        }
        for operation in contract.operations where !covered.contains(operation.signature) {
            notices.append("\(operation.signature) in \(contract.specName) has no stub")
        }
        self.problems = problems
        self.notices = notices
    }

    private static func check(_ answer: CannedResponse, of route: Route, against operation: ContractOperation,
                              in contract: APIContract, place: String) -> [LoadProblem] {
        let label = "\(operation.signature) \(answer.status)\(place)"
        func problem(at pointer: String?, _ message: String, hint: String?) -> LoadProblem {
            Self.problem(answer, route, pointer: pointer, message: "\(label): \(message)", hint: hint)
        }
        guard let response = operation.response(for: answer.status) else {
            let declared = operation.responses.map(\.status).joined(separator: ", ")
            return [problem(at: nil, "the spec declares no \(answer.status) response for \(operation.signature)"
                                + (declared.isEmpty ? "" : " (it declares \(declared))"),
                            hint: "answer a status the spec declares, or add \(answer.status) under \(operation.location)/responses")]
        }
        var found: [LoadProblem] = []
        let names = Set(answer.headers.map { $0.name.canonicalName })
        for header in response.requiredHeaders where !names.contains(header.lowercased()) && header.lowercased() != "content-type" {
            found.append(problem(at: nil, "no \(header) header, which the spec requires (\(response.location)/headers)",
                                 hint: "add \(header) to the stub's headers"))
        }
        let contentType = answer.headers[.contentType]
        if response.media.isEmpty {
            if !answer.body.isEmpty {
                found.append(problem(at: nil, "the spec declares no body for this response, and the stub sends \(answer.body.count) bytes",
                                     hint: "empty the stub's body, or declare its content at \(response.location)"))
            }
            return found
        }
        let declared = response.media.map(\.type).joined(separator: ", ")
        guard let contentType, let media = response.media(for: contentType) else {
            found.append(problem(at: nil, "Content-Type \(contentType ?? "(none)") is not one the spec declares for this response (\(declared))",
                                 hint: "send Content-Type: \(response.media[0].type), or declare the type at \(response.location)/content"))
            return found
        }
        // Only JSON bodies are held to a schema; the spec's other media types are taken on trust.
        guard let schema = media.schema, ContentType.isJSON(mediaType: contentType) else { return found }
        let instance: JSONValue
        do { instance = try JSONParser.parse(answer.body) } catch {
            found.append(problem(at: nil, "the body is not JSON (\(error.message) at line \(error.line), column \(error.column))",
                                 hint: "the spec declares \(media.type); fix the body"))
            return found
        }
        for violation in schema.validate(instance) {
            let shown = violation.instancePath.isEmpty ? "the body" : violation.instancePath
            found.append(problem(at: violation.instancePath, "\(shown): \(violation.message)",
                                 hint: "the spec's rule: \(contract.location(of: violation.schemaPath))"))
        }
        return found
    }

    /// The problem placed where the answer was written: at the value in its body file, or at the
    /// manifest route that holds it inline.
    private static func problem(_ answer: CannedResponse, _ route: Route, pointer: String?, message: String, hint: String?) -> LoadProblem {
        if let file = answer.bodySource ?? { if case .convention(let f) = route.source { f } else { nil } }() {
            let position = pointer.flatMap { JSONTextPosition.of($0, in: answer.body) }
            return LoadProblem(file: file, line: position?.line ?? (pointer == nil ? nil : 1), column: position?.column,
                               message: message, hint: hint)
        }
        if case .manifest(let file, let line) = route.source {
            return LoadProblem(file: file, line: line, message: message, hint: hint)
        }
        return LoadProblem(file: route.source.description, message: message, hint: hint)
    }
}
