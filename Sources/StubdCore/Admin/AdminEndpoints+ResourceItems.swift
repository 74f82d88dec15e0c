import Foundation
import HTTPTypes
import StubdProtocol
import StubdEngine

extension AdminEndpoints {
    /// `GET /__stubd/resources/{name}`: the session's items, a JSON array; `PUT` sets them (a test
    /// seeds its own), all or nothing. Items of a nested resource go to the parent their fields name.
    func resourceItems(method: HTTPRequest.Method, name: String, body: Data, session: SessionState) -> GeneratedResponse {
        guard let resource = catalog.resources[name] else {
            let names = catalog.resources.keys.sorted()
            return .problem(404, title: "No such resource",
                            detail: "no resource '\(name)'; " + (names.isEmpty ? "stubd.yml declares none (resources:)" : "resources: " + names.joined(separator: ", ")))
        }
        let store = session.resourceStore(for: resource)
        if method == .put {
            let items: [JSONValue]
            do {
                guard case .array(let list) = try JSONParser.parse(body) else {
                    return .problem(400, title: "Bad items", detail: "send a JSON array of \(name) items")
                }
                items = list
            } catch {
                return .problem(400, title: "Bad items", detail: "not JSON: line \(error.line), column \(error.column): \(error.message)")
            }
            do throws(ResourceRefusal) { try store.replaceAll(items) } catch { return error.answer }
        }
        return .json(200, .array(store.allItems()))
    }

    /// `GET /__stubd/resources`: every resource with the number of items the session holds.
    func resourcesReport(_ session: SessionState) -> ResourcesReport {
        ResourcesReport(session: session.id, resources: catalog.resources.values.sorted { $0.name < $1.name }.map { resource in
            ResourcesReport.Resource(name: resource.name, path: resource.pattern.text, count: session.resourceStore(for: resource).count)
        })
    }
}
