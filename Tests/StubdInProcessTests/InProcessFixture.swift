import Foundation
import StubdCoreTestSupport
import StubdInProcess
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The weather API of the project's motivating case, with what each test here reaches: a quota on a
/// virtual clock, a scenario, faults, a hang, server-sent events, a template that echoes the request.
enum WeatherStubs {
    static let files: [String: String] = WeatherQuotaStubs.files.merging([
        "live/scores.sse": """
        event: goal
        id: 1
        data: {"home": 1}

        : delay 30s
        event: goal
        id: 2
        data: {"home": 2}
        """,
        "stubd.yml": WeatherQuotaStubs.manifest(routes: """
          - name: reset
            request: { path: /reset }
            response: { fault: connection_reset }
          - name: empty
            request: { path: /empty }
            response: { fault: empty_response }
          - name: hang
            request: { path: /hang }
            response: { fault: hang }
          - name: slow
            request: { path: /slow }
            response: { delay: 300ms, json: { slow: true } }
          - name: echo
            request: { method: POST, path: /echo }
            response: { template: true, body: "{{request.body}} via {{request.headers.X-Trace}}" }

        """ + ScenarioRoutes.cart(added: "{ status: 201, json: { added: tea } }") + """
          - name: full-cart
            request: { path: /cart }
            response: { json: { items: [tea] } }
            scenario: cart
            whenState: has-item

        """),
    ]) { _, new in new }

    static func load() throws -> InProcessStubs { try InProcessStubs.load(stubs: TempStubs(files).url) }
}

extension URLSession {
    /// `data(for:)` with the status, for the assertions.
    func get(_ url: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:],
             timeout: TimeInterval = 10) async throws -> (status: Int, text: String, response: HTTPURLResponse) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await data(for: request)
        let http = response as! HTTPURLResponse
        return (http.statusCode, String(decoding: data, as: UTF8.self), http)
    }
}

/// The `URLError` code a request failed with, or nil when it succeeded.
func failure(of request: () async throws -> Void) async -> URLError.Code? {
    do {
        try await request()
        return nil
    } catch let error as URLError {
        return error.code
    } catch {
        return URLError.Code(rawValue: -999_999)
    }
}
