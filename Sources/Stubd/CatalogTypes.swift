// The StubdCore types a public API of `Stubd` shows (`StubServer.Options.reloadLog` and `maskedSecrets`; a
// test that loads its Stubs folder to write one test per route), re-exported one by one so that `import
// Stubd` is enough to name them and to use their members (MemberImportVisibility asks for the defining
// module; a typealias would not bring it): StubdCore is not a product, and nothing else of it is re-exported.
@_exported public import struct StubdCore.CatalogLoadError
@_exported public import struct StubdCore.LoadProblem
@_exported public import struct StubdCore.NamedSecret
@_exported public import class StubdCore.Route
@_exported public import class StubdCore.StubCatalog
