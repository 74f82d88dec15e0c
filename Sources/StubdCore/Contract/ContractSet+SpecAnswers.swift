package import Foundation
package import HTTPTypes
package import StubdEngine

/// The engine's questions about the specs it serves (`SpecAnswers`), answered from the contract.
extension ContractSet: SpecAnswers {
    /// An example given as JSON is sent serialized, one given as text as written, one given as JSON
    /// for an XML type written as XML (`XMLRenderer`, by the schema's `xml` members); other types are
    /// left out. A type is offered once, the stub's own bodies first.
    package func declaredBodies(for route: Route, status: HTTPResponse.Status, besides offered: [String]) -> (specName: String, bodies: [(mediaType: String, body: Data)])? {
        guard let (operation, contract) = owner(of: route), let response = operation.response(for: status) else { return nil }
        var taken = offered, bodies: [(mediaType: String, body: Data)] = []
        for media in response.media where !media.type.contains("*") && !taken.contains(where: { media.accepts($0) == 2 }) {
            guard let example = media.example else { continue }
            let body: Data
            if ContentType.isJSON(mediaType: media.type) { body = Data(example.serialized.utf8) }
            else if case .string(let text) = example { body = Data(text.utf8) }
            else if ContentType.isXML(mediaType: media.type) { body = Data(XMLRenderer.document(example, guide: media.xml).utf8) }
            else { continue }
            bodies.append((media.type, body))
            taken.append(media.type)
        }
        return (contract.specName, bodies)
    }

    package func declaredStatuses(method: HTTPRequest.Method, path: [Substring]) -> (specName: String, statuses: [String])? {
        guard let contract = contract(method: method, path: path), let (operation, _) = contract.operation(method: method, path: path) else { return nil }
        return (contract.specName, operation.responses.map(\.status))
    }

    package func answerProblems(status: HTTPResponse.Status, headerNames: Set<String>, contentType: String?, body: Data, route: Route) -> [String] {
        guard let (operation, contract) = owner(of: route) else { return [] }
        return AnswerConformance.violations(status: status, headerNames: headerNames, contentType: contentType, body: body,
                                            of: operation, in: contract).map(\.message)
    }
}
