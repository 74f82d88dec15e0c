import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Prefer: code=404` (or `example=rainy`) with every request: how a test asks stubd for a
/// documented answer other than the default. The header is no part of the spec, so the generated
/// client has no parameter for it; a middleware is where such a header goes.
struct PreferMiddleware: ClientMiddleware {
    let prefer: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[HTTPField.Name("Prefer")!] = prefer
        return try await next(request, body, baseURL)
    }
}
