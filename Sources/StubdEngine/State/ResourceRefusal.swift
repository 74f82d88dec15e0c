package import HTTPTypes

/// Why a resource operation was not done, as the problem+json answer that says so.
package struct ResourceRefusal: Error, Sendable {
    package let status: HTTPResponse.Status
    package let title: String
    package let detail: String

    static func notFound(_ resource: ResourceDefinition, _ id: String) -> ResourceRefusal {
        ResourceRefusal(status: .notFound, title: "No such item",
                        detail: "\(resource.name) has no item with \(resource.idField) '\(id)' in this session")
    }

    static func badItem(_ detail: String) -> ResourceRefusal {
        ResourceRefusal(status: .badRequest, title: "Bad item", detail: detail)
    }

    /// 507 (RFC 4918): the session's share of the resource is full; HTTPTypes names no constant for it.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    package var answer: GeneratedResponse { .problem(status, title: title, detail: detail) }
}
