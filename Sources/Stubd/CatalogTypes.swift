// The StubdEngine types a public API of `Stubd` shows (`StubServer.Options.reloadLog` and `maskedSecrets`; a
// test that loads its Stubs folder to write one test per route), re-exported one by one so that `import
// Stubd` is enough to name them and to use their members (MemberImportVisibility asks for the defining
// module; a typealias would not bring it): StubdEngine is not a product, and nothing else of it is re-exported.
@_exported public import struct StubdEngine.CatalogLoadError
@_exported public import struct StubdEngine.LoadProblem
@_exported public import struct StubdEngine.NamedSecret
@_exported public import class StubdEngine.Route
@_exported public import class StubdEngine.StubCatalog
