package import Foundation
package import StubdProtocol
package import HTTPTypes

/// An answer made for one request (errors, quota rejections, admin replies), as opposed to a canned one.
package struct GeneratedResponse: Sendable {
    package var status: HTTPResponse.Status
    package var headers: HTTPFields
    package var body: Data

    package init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// JSON with the right content type.
    package static func json(_ status: HTTPResponse.Status, _ value: JSONValue, headers: HTTPFields = [:]) -> GeneratedResponse {
        GeneratedResponse(status: status, headers: [.contentType: ContentType.json] + headers, body: Data(value.serialized.utf8))
    }

    /// An admin API document (`StubdProtocol`), encoded as the client decodes it.
    package static func document<T: Encodable>(_ status: HTTPResponse.Status, _ value: T) -> GeneratedResponse {
        GeneratedResponse(status: status, headers: [.contentType: ContentType.json], body: AdminCoding.encode(value))
    }

    /// An admin API error, as `StubdClient` reads it.
    package static func problem(_ problem: Problem) -> GeneratedResponse {
        GeneratedResponse(status: HTTPResponse.Status(code: problem.status), headers: [.contentType: ContentType.problemJSON], body: AdminCoding.encode(problem))
    }

    /// RFC 9457 problem details: what went wrong and what to do.
    package static func problem(_ status: HTTPResponse.Status, title: String, detail: String, extra: [String: JSONValue] = [:],
                               headers: HTTPFields = [:]) -> GeneratedResponse {
        var members: [String: JSONValue] = ["type": .string("about:blank"), "title": .string(title),
                                            "status": .number(Double(status.code)), "detail": .string(detail)]
        for (k, v) in extra { members[k] = v }
        return GeneratedResponse(status: status, headers: [.contentType: ContentType.problemJSON] + headers,
                                 body: Data(JSONValue.object(members).serialized.utf8))
    }
}
