import Foundation
@testable import StubdCore
import StubdCoreTestSupport

/// The harness holding a folder to a spec, as `withStrictServer(spec:stubs:validation:)` and
/// `contractOptions(spec:)` (StubdTestSupport) set up a server: the same set-up, no socket.
extension EngineHarness {
    /// `spec` (an OpenAPI or Swagger document's text) written to a folder of its own as `specFile`
    /// and loaded as the one spec requests and stubs are held to.
    static func contract(spec: String, specFile: String = "openapi.yaml") throws -> ContractSet {
        let folder = try TempStubs([specFile: spec])
        return ContractSet(try APIContract.load(spec: folder.url.appendingPathComponent(specFile)))
    }

    /// `stubs` (relative path → contents) answered under `spec`, requests held to it as `validation` says.
    init(spec: String, specFile: String = "openapi.yaml", stubs: [String: String], validation: Validation = .strict) throws {
        try self.init(try TempStubs(stubs), contracts: try Self.contract(spec: spec, specFile: specFile), validation: validation)
    }
}
