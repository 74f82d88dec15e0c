import Foundation
import HTTPTypes

/// A request on a resource's route, answered from the session's items: the HTTP of the six
/// operations (media types, status codes, `Location`, the total), the items themselves being the
/// store's.
package enum ResourceAnswers {
    /// `locationPrefix`: `/__s/{id}` when the request came through a session's prefix, so the
    /// `Location` of a created item leads back into the same session.
    static func answer(_ binding: ResourceBinding, parameters: [String: String], request: RequestHead, store: ResourceStore,
                       locationPrefix: String, random: () -> UInt64) -> GeneratedResponse {
        do throws(ResourceRefusal) {
            return try answering(binding, parameters, request, store, locationPrefix, random)
        } catch {
            return error.answer
        }
    }

    private static func answering(_ binding: ResourceBinding, _ parameters: [String: String], _ request: RequestHead,
                                  _ store: ResourceStore, _ locationPrefix: String, _ random: () -> UInt64) throws(ResourceRefusal) -> GeneratedResponse {
        let resource = binding.resource
        let parent = resource.parentKey(parameters)
        // Nested items carry their parent's value (`userId: 1`), as json-server's do.
        var stamp: [String: JSONValue] = [:]
        if !resource.parentNames.isEmpty, binding.operation.writes {
            for name in resource.parentNames { stamp[name] = ResourceDefinition.fieldValue(parameters[name] ?? "") }
        }
        let id = parameters[resource.itemParameter] ?? ""
        if binding.operation.onItem, let why = ResourceDefinition.refusal(ofID: id) { throw .badItem(why) }

        switch binding.operation {
        case .list:
            let page = try ResourcePage.read(request.query)
            let (total, array) = store.list(parent: parent, filters: page.filters, offset: page.offset, limit: page.limit)
            switch resource.total {
            case .header:
                return json(.ok, array, headers: [totalCount: String(total)])
            case .envelope:
                var body = "{\"items\":" + array + ",\"total\":\(total)"
                switch page.style {
                case .all: break
                case let .pages(number, perPage): body += ",\"page\":\(number),\"per_page\":\(perPage)"
                case let .window(offset, limit): body += ",\"offset\":\(offset)" + (limit.map { ",\"limit\":\($0)" } ?? "")
                }
                return json(.ok, body + "}")
            }
        case .read:
            guard let item = store.read(parent: parent, id: id) else { throw .notFound(resource, id) }
            return json(.ok, item)
        case .create:
            let item = try store.create(parent: parent, body: try body(request, resource), stamp: stamp, random: random)
            let collection = request.normalizedPath == "/" ? "" : request.normalizedPath
            let location = locationPrefix + collection + "/" + (item.id.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? item.id)
            return json(.created, item.json, headers: [.location: location])
        case .replace:
            let replacement = try body(request, resource)
            return json(.ok, try store.modify(parent: parent, id: id, stamp: stamp) { _ throws(ResourceRefusal) in replacement }.json)
        case .update:
            // The media type says which patch it is: asked first, so a body of another type is a 415, not a 400.
            let mediaType = request.header(.contentType)?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            let isJSONPatch: Bool
            switch mediaType {
            case "application/json-patch+json": isJSONPatch = true
            case nil, "application/json", "application/merge-patch+json": isJSONPatch = false
            case let other?:
                throw ResourceRefusal(status: .unsupportedMediaType, title: "Unsupported patch",
                                      detail: "a PATCH of \(resource.name) is application/merge-patch+json (or application/json), or application/json-patch+json; not \(other)")
            }
            let patch = try body(request, resource, patch: true)
            let item = try store.modify(parent: parent, id: id, stamp: stamp) { old throws(ResourceRefusal) in
                try isJSONPatch ? JSONPatch.apply(patch, to: old, within: resource.itemLimits) : JSONMergePatch.apply(patch, to: old)
            }
            return json(.ok, item.json)
        case .delete:
            guard store.delete(parent: parent, id: id) else { throw .notFound(resource, id) }
            return GeneratedResponse(status: .noContent)
        }
    }

    /// The request's body as JSON, within the resource's size for an item.
    private static func body(_ request: RequestHead, _ resource: ResourceDefinition, patch: Bool = false) throws(ResourceRefusal) -> JSONValue {
        guard request.body.count <= resource.maxItemBytes else {
            throw ResourceRefusal(status: .contentTooLarge, title: "Item too large",
                                  detail: "\(request.body.count) bytes sent; an item of \(resource.name) may take \(resource.maxItemBytes) (maxItemBytes)")
        }
        guard !request.body.isEmpty else { throw .badItem("send the \(patch ? "patch" : "item") as a JSON body") }
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw .badItem("the body is not JSON: line \(error.line), column \(error.column): \(error.message)")
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ text: String, headers: HTTPFields = [:]) -> GeneratedResponse {
        GeneratedResponse(status: status, headers: [.contentType: ContentType.json] + headers, body: Data(text.utf8))
    }

    static let totalCount = HTTPField.Name("X-Total-Count")!

    /// What a path segment may hold unescaped (RFC 3986 pchar without '/').
    private static let segmentCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}
