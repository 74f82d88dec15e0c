import Foundation
public import Stubd
import StubdCore
import StubdEngine

/// `spec` (an OpenAPI or Swagger document's text) written to a temporary folder as `specFile` and
/// loaded as the contract a server holds requests to, in `validation` mode: the set-up each
/// contract suite wrote again before it was one function.
public func contractOptions(spec: String, specFile: String = "openapi.yaml",
                            validation: RequestValidationMode = .strict) throws -> StubServer.Options {
    let folder = try TempStubs([specFile: spec])
    var options = StubServer.Options()
    options.contract = try APIContract.load(spec: folder.url.appendingPathComponent(specFile))
    options.requestValidation = validation
    return options
}

/// Serves `stubs` (relative path → contents: convention files, or a `stubd.yml`) in-process, holding
/// requests to `spec` (strict unless `validation` says otherwise), and always stops the server.
public func withStrictServer<R>(spec: String, specFile: String = "openapi.yaml", stubs: [String: String],
                                validation: RequestValidationMode = .strict,
                                _ body: (StubServer) async throws -> R) async throws -> R {
    let options = try contractOptions(spec: spec, specFile: specFile, validation: validation)
    return try await withServer(try TempStubs(stubs).url, options: options, body)
}
