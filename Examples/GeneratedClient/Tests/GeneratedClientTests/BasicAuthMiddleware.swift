import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Basic …` with every request, as a Twilio client sends its account SID and
/// auth token: the spec's `security` asks for it, and `--validate requests=strict` answers 401
/// without it. (A 401 with `WWW-Authenticate` that nothing answers leaves URLSession on Linux
/// waiting past its timeout, so the credential is not optional here.)
struct BasicAuthMiddleware: ClientMiddleware {
    let user: String
    let password: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        return try await next(request, body, baseURL)
    }
}
