public import StubdProtocol

// The documents the client's calls return are the admin API's own, defined once in StubdProtocol,
// which the server encodes them with. StubdProtocol is no product, so without these a user who
// imports StubdClient could not write their names. Aliases keep the layering as Package.swift
// has it: the client and the server share the wire documents, nothing else.

/// Which answers, network behaviours and quota states requests reached, route by route
/// (``StubControl/coverage()``); `uncoveredMessage(except:)` words what was missed.
public typealias CoverageReport = StubdProtocol.CoverageReport

/// The latest requests of a session, newest last, each with the route it matched or the nearest
/// routes it missed (``StubdClient/StubdClient/requests(limit:)``).
public typealias JournalReport = StubdProtocol.JournalReport

/// A session's quotas and how each key stands: used, limit, policy, seconds to the reset
/// (``StubdClient/StubdClient/quotas()``).
public typealias QuotasReport = StubdProtocol.QuotasReport

/// The spec `stubd serve --spec` holds the stubs to, and its notices on the catalog
/// (``StubdClient/StubdClient/contract()``).
public typealias ContractReport = StubdProtocol.ContractReport

/// The server's version, its routes, and the folder it serves with that folder's fingerprint
/// (``StubdClient/StubdClient/health()``).
public typealias HealthReport = StubdProtocol.HealthReport

/// A runtime stub as the admin API takes it (``StubRoute/document()``).
public typealias RuntimeStubDocument = StubdProtocol.RuntimeStubDocument

/// A user's JSON as the admin documents carry it: a GraphQL call's variables, and what
/// `expectOperation(…, variables:)` wants them to include (`.object(["city": .string("Paris")])`).
public typealias EmbeddedJSON = StubdProtocol.EmbeddedJSON

/// A GraphQL request as the journal read it: its operation and variables (a `JournalReport` entry's
/// `graphQL`; what `expectOperation` counts).
public typealias GraphQLCall = StubdProtocol.GraphQLCall
