public import Foundation
import StubdCore
public import StubdClient
import StubdProtocol
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A Stubs folder answered inside this process, without a socket: the engine `stubd serve` runs,
/// behind a `URLProtocol` that a `URLSession` made from `sessionConfiguration` (or `urlSession`)
/// sends every http and https request to, whatever its host. Each view (`session(_:)`) has its own
/// `URLProtocol` class, so tests running in parallel, each in its own session, see none of each
/// other's hits, quotas, clock or state. It builds where libmicrohttpd cannot (an iOS, tvOS,
/// watchOS or visionOS test bundle): nothing of it links a C library.
///
/// ```swift
/// let stubs = try InProcessStubs.load(stubs: stubsFolder)
/// let service = WeatherService(baseURL: URL(string: "https://api.weather.example")!, session: stubs.urlSession)
/// …
/// #expect(try await stubs.hits("conditions") == 1)
/// stubs.close()
/// ```
///
/// Its admin calls (`hits`, `advanceClock`, `scenario(_:)` …) go through the same `URLProtocol`
/// to the engine's admin API, as `StubdClient`'s go over a socket: one API, two ways to reach it.
public final class InProcessStubs: AdminBackedControl, @unchecked Sendable {
    /// `http://stubd.invalid/__s/ID` for a session: a request to it answered in this view's session
    /// (a `.invalid` name never resolves, so a request sent to it by another `URLSession` fails at
    /// once instead of reaching anything).
    public let baseURL: URL
    /// The session this view answers in ("" for the default one).
    public let sessionID: String
    let front: InProcessFront
    /// Where `session(_:)`'s views and `close()` find each other.
    private let shared: Shared
    private let madeSession = Locked<URLSession?>(nil)

    /// Loads `stubs` as `stubd serve` does (throwing `CatalogLoadError` with every problem at
    /// once) and answers it in the default session. `specs` are OpenAPI files the stubs and
    /// requests are held to, as `serve --spec`'s (needs the package's `OpenAPI` trait, on by
    /// default); `strictRequests` refuses a request that breaks its operation, as
    /// `--validate requests=strict`.
    public static func load(stubs: URL, specs: [URL] = [], strictRequests: Bool = false) throws -> InProcessStubs {
        let contracts = specs.isEmpty ? nil : try ContractSet(specs.map { try APIContract.load(spec: $0) })
        return InProcessStubs(front: try InProcessFront.load(stubs: stubs, contracts: contracts, strict: strictRequests))
    }

    /// The engine of a server (`StubServer`'s) answered without a socket too, in its default session.
    package convenience init(front: InProcessFront) {
        self.init(front: front, session: "", shared: Shared(front: front))
    }

    private init(front: InProcessFront, session: String, shared: Shared) {
        self.front = front
        self.sessionID = session
        self.shared = shared
        var url = URL(string: "http://stubd.invalid")!
        if !session.isEmpty { url = url.appendingPathComponent("__s").appendingPathComponent(session) }
        baseURL = url
    }

    /// Its requests answered here, in this view's session: an `.ephemeral` configuration with this
    /// view's `URLProtocol` first in `protocolClasses`. Headers meant for every request go on each
    /// request: on Linux a configuration's `httpAdditionalHeaders` never reach a `URLProtocol`.
    public var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [front.protocolClass(session: sessionID)] + (configuration.protocolClasses ?? [])
        configuration.httpMaximumConnectionsPerHost = 64
        return configuration
    }

    /// A `URLSession` made with `sessionConfiguration`, once per view. `close()` leaves it valid (code
    /// under test that outlives its test, a poller, would crash making a task on an invalidated
    /// session): its requests fail from then on, saying the stubs are closed.
    public var urlSession: URLSession {
        madeSession.withLock { made in
            if let made { return made }
            let session = URLSession(configuration: sessionConfiguration)
            made = session
            return session
        }
    }

    /// The admin API of this view, reached through the engine in this process.
    public var adminClient: StubdClient {
        StubdClient(baseURL: baseURL, adminToken: nil, transport: shared.adminSession)
    }

    /// A view of the same engine in session `id`: its own hits, sequences, quotas, runtime stubs, clock and state.
    public func session(_ id: String) -> any StubControl { sessionView(id) }

    /// `session(_:)` with its concrete type.
    public func sessionView(_ id: String) -> InProcessStubs {
        InProcessStubs(front: front, session: id, shared: shared)
    }

    /// `URLProtocol.registerClass` with this view's class, until `close()`: on Apple platforms every
    /// `URLSession` without classes of its own (`URLSession.shared` too) is then answered by this view,
    /// for code under test that cannot be given a session. One view at a time can hold this: it is one
    /// global setting, so tests that use it cannot run in parallel. On Linux it answers nothing over
    /// http(s): swift-corelibs-foundation tries a configuration's own classes, its HTTP protocol among
    /// them, before registered ones (measured with Swift 6.3.1): give the code a session there.
    public func answerEveryURLSession() {
        _ = URLProtocol.registerClass(front.protocolClass(session: sessionID))
        shared.registered(front.protocolClass(session: sessionID))
    }

    /// Ends every view of this engine: a class registered with `answerEveryURLSession()` is
    /// unregistered, and a request still made through their `URLSession`s fails saying the stubs are
    /// closed. Idempotent.
    public func close() { shared.close() }
}

extension InProcessStubs {
    /// What every view of one engine shares: the admin calls' `URLSession`, a class registered
    /// globally, and whether it is closed.
    final class Shared: @unchecked Sendable {
        let front: InProcessFront
        private let state = Locked<(registered: [AnyClass], closed: Bool)>(([], false))
        /// Made on the first admin call: every `StubServer` (so every `stubd serve`) has an
        /// `InProcessStubs`, and a daemon never makes one.
        private let madeAdminSession = Locked<URLSession?>(nil)

        init(front: InProcessFront) { self.front = front }

        var adminSession: URLSession {
            madeAdminSession.withLock { made in
                if let made { return made }
                let configuration = URLSessionConfiguration.ephemeral
                configuration.protocolClasses = [front.protocolClass(session: "")]
                // Long-polls (`hits/wait`) are held; each needs its own place.
                configuration.httpMaximumConnectionsPerHost = 64
                configuration.timeoutIntervalForRequest = 3600
                let session = URLSession(configuration: configuration)
                made = session
                return session
            }
        }

        func registered(_ protocolClass: AnyClass) { state.withLock { $0.registered.append(protocolClass) } }

        func close() {
            let registered = state.withLock { state -> [AnyClass] in
                guard !state.closed else { return [] }
                state.closed = true
                defer { state.registered = [] }
                return state.registered
            }
            for protocolClass in registered { URLProtocol.unregisterClass(protocolClass) }
            front.close()
        }
    }
}
