public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// What a request through `http(_:)` got back.
public struct HTTPResult: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data
    public var text: String { String(decoding: body, as: UTF8.self) }
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
    public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
}

public let urlSession: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 256
    configuration.timeoutIntervalForRequest = 10
    return URLSession(configuration: configuration)
}()

/// One request through URLSession (libcurl underneath on Linux).
public func http(_ url: URL, method: String = "GET", body: String? = nil, headers: [String: String] = [:],
                 session: URLSession = urlSession) async throws -> HTTPResult {
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let body { request.httpBody = Data(body.utf8) }
    // The admin API takes writes only as JSON; a test of that refusal sets its own Content-Type.
    if url.path.contains("/__stubd/"), ["POST", "PUT", "PATCH"].contains(method) {
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
    let (data, response) = try await session.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (k, v) in http.allHeaderFields { fields["\(k)"] = "\(v)" }
    return HTTPResult(status: http.statusCode, headers: fields, body: data)
}

public func get(_ base: URL, _ path: String, headers: [String: String] = [:]) async throws -> HTTPResult {
    try await http(URL(string: base.absoluteString + path)!, headers: headers)
}
