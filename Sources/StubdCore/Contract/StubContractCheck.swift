import Foundation
import HTTPTypes
package import StubdEngine

/// Every stub answer of a catalog held against the spec: a stub that breaks its operation's response
/// is a load problem placed in the stub's file; a stub with no operation, or an operation with no
/// stub, is a notice.
package struct StubContractCheck: Sendable {
    /// Violations, each at the stub file's line and column of the offending value.
    package let problems: [LoadProblem]
    /// What is not an error but worth knowing: unmatched stubs, operations no stub answers, answers not checked.
    package let notices: [String]
    /// `notices` by the spec each is about, in the set's order (`GET /__stubd/contract` lists each
    /// spec with its own); a stub that matches no spec's operation is in `notices` alone.
    package let specNotices: [[String]]
    /// Answers that keep to the spec but that a Swift client could not decode (a `date-time` with
    /// fractional seconds…), each at its place in the stub: `stubd check --swift-compatible` makes them problems.
    package let swiftWarnings: [LoadProblem]

    /// `swiftWarnings`: false leaves `swiftWarnings` empty, for a caller that reads only `problems`
    /// (the import's self-check): finding them walks every body a second time.
    package init(catalog: StubCatalog, contract: APIContract, swiftWarnings: Bool = true) {
        self.init(catalog: catalog, contracts: ContractSet(contract), swiftWarnings: swiftWarnings)
    }

    /// A folder holding several specs' stubs (`check --spec A --spec B`, `serve --spec A --spec B`):
    /// each route is held to the spec that has its operation (`ContractSet.owner(of:)`).
    package init(catalog: StubCatalog, contracts set: ContractSet, swiftWarnings findSwiftWarnings: Bool = true) {
        let contracts = set.contracts
        var problems: [LoadProblem] = []
        var notices: [String] = []
        var specNotices = [[String]](repeating: [], count: contracts.count)
        var covered: [ObjectIdentifier: Set<String>] = [:]
        var listed: Set<LoadProblem> = []
        var swiftWarnings: [LoadProblem] = []
        let names = contracts.map(\.specName).joined(separator: " or ")
        let index = Dictionary(uniqueKeysWithValues: contracts.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
        for route in catalog.routes {
            if case .runtime = route.source { continue }
            guard let (operation, contract) = set.owner(of: route) else {
                notices.append("\(route.signature) (\(route.source)) matches no operation in \(names)")
                continue
            }
            covered[ObjectIdentifier(contract), default: []].insert(operation.signature)
            // A resource's answers are made per request from a session's items: none to check at load.
            if route.resource != nil { continue }
            for (step, answer) in route.responses.enumerated() {
                if answer.fault != nil || answer.quotaStatus != nil { continue }
                let place = route.responses.count > 1 ? " (answer \(step + 1) of \(route.responses.count))" : ""
                if answer.template != nil {
                    let notice = "\(route.signature) (\(route.source))\(place) is a template: its answers are not checked against \(contract.specName)"
                    notices.append(notice)
                    specNotices[index[ObjectIdentifier(contract)]!].append(notice)
                    continue
                }
                // Routes that share a body file (a plain route and its `Prefer: code=` twin) share its
                // problems: each is listed once, at the file.
                for problem in Self.check(answer, of: route, against: operation, in: contract, place: place)
                where listed.insert(problem).inserted {
                    problems.append(problem)
                }
                guard findSwiftWarnings else { continue }
                let label = "\(operation.signature) \(answer.status.code)\(place)"
                for warning in AnswerConformance.swiftDateWarnings(status: answer.status, contentType: answer.headers[.contentType],
                                                                   body: answer.body, of: operation) {
                    let placed = Self.problem(answer, route, pointer: warning.pointer, message: "\(label): \(warning.message)", hint: warning.hint)
                    if listed.insert(placed).inserted { swiftWarnings.append(placed) }
                }
            }
        }
        for (i, contract) in contracts.enumerated() {
            for operation in contract.operations where !(covered[ObjectIdentifier(contract)]?.contains(operation.signature) ?? false) {
                let notice = "\(operation.signature) in \(contract.specName) has no stub"
                notices.append(notice)
                specNotices[i].append(notice)
            }
        }
        self.problems = problems
        self.notices = notices
        self.specNotices = specNotices
        self.swiftWarnings = swiftWarnings
    }

    /// How a runtime stub's answers break the spec (`POST /__stubd/stubs` under `serve --spec`): empty
    /// when they keep to it, when it is for no operation (a notice for a file stub; nothing here), or
    /// when each answer is a template, a fault or a quota status (checked once rendered, or never).
    package static func problems(of route: Route, in contracts: ContractSet) -> [LoadProblem] {
        guard route.resource == nil, let (operation, contract) = contracts.owner(of: route) else { return [] }
        var problems: [LoadProblem] = []
        for (step, answer) in route.responses.enumerated()
        where answer.fault == nil && answer.quotaStatus == nil && answer.template == nil {
            let place = route.responses.count > 1 ? " (answer \(step + 1) of \(route.responses.count))" : ""
            problems += check(answer, of: route, against: operation, in: contract, place: place)
        }
        return problems
    }

    private static func check(_ answer: CannedResponse, of route: Route, against operation: ContractOperation,
                              in contract: APIContract, place: String) -> [LoadProblem] {
        let label = "\(operation.signature) \(answer.status.code)\(place)"
        // Each of a `content:` answer's bodies is held to the media type it is sent as.
        return ([answer] + answer.alternatives).flatMap { variant in
            let violations = AnswerConformance.violations(status: variant.status, headerNames: Set(variant.headers.map { $0.name.canonicalName }),
                                                          contentType: variant.headers[.contentType], body: variant.body,
                                                          of: operation, in: contract)
            return violations.map { violation in
                Self.problem(variant, route, pointer: violation.pointer, message: "\(label): \(violation.message)", hint: violation.hint)
            }
        }
    }

    /// The problem placed where the answer was written: at the value in its body file, or at the
    /// manifest route that holds it inline.
    package static func problem(_ answer: CannedResponse, _ route: Route, pointer: String?, message: String, hint: String?) -> LoadProblem {
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
