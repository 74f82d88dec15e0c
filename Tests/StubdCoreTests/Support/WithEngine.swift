import Foundation
@testable import StubdCore
import StubdCoreTestSupport

/// `withServer(_:options:_:)` (StubdTestSupport) without the server: `stubs` answered by an
/// `EngineHarness`, held to `contracts` as `validation` says. A test moved off the socket keeps its shape.
func withEngine<R>(_ stubs: URL, contracts: ContractSet? = nil, validation: EngineHarness.Validation = .report,
                   maxSessions: Int = 1000, journalCapacity: Int = 1000, maskedHeaders: [String] = [], maxRuntimeStubs: Int = 10_000,
                   _ body: (EngineHarness) throws -> R) throws -> R {
    try body(try EngineHarness(folder: stubs, maxSessions: maxSessions, journalCapacity: journalCapacity, contracts: contracts,
                               validation: validation, maskedHeaders: maskedHeaders, maxRuntimeStubs: maxRuntimeStubs))
}

/// `withStrictServer(spec:specFile:stubs:validation:_:)` without the server: `stubs` (relative path →
/// contents) held to `spec`, strict unless `validation` says otherwise.
func withStrictEngine<R>(spec: String, specFile: String = "openapi.yaml", stubs: [String: String],
                         validation: EngineHarness.Validation = .strict, _ body: (EngineHarness) throws -> R) throws -> R {
    try body(try EngineHarness(spec: spec, specFile: specFile, stubs: stubs, validation: validation))
}
