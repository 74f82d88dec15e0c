import Foundation
import HTTPTypes
import StubdEngine
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as `URLSession` hands it to a `URLProtocol` that cannot be read as HTTP.
struct UnreadableRequest: Error, CustomStringConvertible {
    let description: String
    /// What a server answers it with: 400, or 413 for a body over the limit.
    var status = 400
}

extension RequestHead {
    /// The request `URLSession` hands a `URLProtocol`, as the engine reads one from the wire: the
    /// path and query decoded, the header fields as sent, the body whole (given as `httpBody`, or
    /// as a stream, which is how URLSession passes an upload's).
    init(_ request: URLRequest) throws {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw UnreadableRequest(description: "the request has no URL")
        }
        guard let method = HTTPRequest.Method(request.httpMethod ?? "GET") else {
            throw UnreadableRequest(description: "\"\(request.httpMethod ?? "")\" is not an HTTP method")
        }
        var fields = HTTPFields()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        // As a socket's request carries it: hosts and `host:` conditions match on it.
        let hostField = HTTPField.Name("Host")!
        if fields[hostField] == nil, let host = url.host {
            fields[hostField] = url.port.map { "\(host):\($0)" } ?? host
        }
        let path = components.path.isEmpty ? "/" : components.path
        let query = (components.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) }
        self.init(method: method, path: path, query: query, headers: fields, body: try Self.body(of: request))
    }

    /// At most `limit` bytes, what `stubd serve` takes by default (`--max-body`, 1 MiB), so a stream
    /// without end cannot make the test process hold it.
    private static func body(of request: URLRequest, limit: Int = 1 << 20) throws -> Data {
        if let body = request.httpBody {
            guard body.count <= limit else { throw tooLarge(limit) }
            return body
        }
        guard let stream = request.httpBodyStream else { return Data() }
        stream.open()
        defer { stream.close() }
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = stream.read(&buffer, maxLength: buffer.count)
            if n < 0 { throw UnreadableRequest(description: "the request's body stream failed: \(stream.streamError.map { "\($0)" } ?? "no reason given")") }
            if n == 0 { break }
            body.append(contentsOf: buffer[..<n])
            if body.count > limit { throw tooLarge(limit) }
        }
        return body
    }
}

extension RequestHead {
    private static func tooLarge(_ limit: Int) -> UnreadableRequest {
        UnreadableRequest(description: "the request's body is over \(limit) bytes, the most `stubd serve` takes by default", status: 413)
    }
}
