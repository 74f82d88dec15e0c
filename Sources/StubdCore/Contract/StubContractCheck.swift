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
        var listed: Set<LoadProblem> = []
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
                // Routes that share a body file (a plain route and its `Prefer: code=` twin) share its
                // problems: each is listed once, at the file.
                for problem in Self.check(answer, of: route, against: operation, in: contract, place: place)
                where listed.insert(problem).inserted {
                    problems.append(problem)
                }
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
        let label = "\(operation.signature) \(answer.status.code)\(place)"
        let violations = AnswerConformance.violations(status: answer.status, headerNames: Set(answer.headers.map { $0.name.canonicalName }),
                                                      contentType: answer.headers[.contentType], body: answer.body,
                                                      of: operation, in: contract)
        return violations.map { violation in
            Self.problem(answer, route, pointer: violation.pointer, message: "\(label): \(violation.message)", hint: violation.hint)
        }
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
