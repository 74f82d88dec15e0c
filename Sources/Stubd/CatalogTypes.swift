import StubdCore

// The catalog's types a user of `Stubd` meets (`StubServer.Options.reloadLog`; a test that loads its
// Stubs folder to write one test per route), named here so that `import Stubd` is enough: StubdCore is
// not a product, and everything else in it is `package`.

/// A Stubs folder, loaded: its routes, and the problems that stop it loading.
public typealias StubCatalog = StubdCore.StubCatalog
/// One stub: a method and path pattern with its answers.
public typealias Route = StubdCore.Route
/// Every problem in a Stubs folder that failed to load, each with its file and line.
public typealias CatalogLoadError = StubdCore.CatalogLoadError
/// One problem in a Stubs folder: the file, the line, what was wrong, what to do.
public typealias LoadProblem = StubdCore.LoadProblem
