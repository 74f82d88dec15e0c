// The StubdEngine types a test of this module's users names (`InProcessStubs.load` throws
// CatalogLoadError; a test that loads its Stubs folder writes one test per route), re-exported one by
// one as Stubd re-exports them: StubdEngine is not a product, and nothing else of it is re-exported.
@_exported public import struct StubdEngine.CatalogLoadError
@_exported public import struct StubdEngine.LoadProblem
@_exported public import class StubdEngine.Route
@_exported public import class StubdEngine.StubCatalog
