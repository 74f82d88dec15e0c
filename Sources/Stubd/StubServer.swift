public import Foundation
package import StubdCore
package import StubdInProcess
public import StubdEngine
import StubdProtocol
import StubdClient
import Synchronization

/// A stub server: a Stubs directory served over HTTP by libmicrohttpd, in this process.
///
/// ```swift
/// let server = try await StubServer.start(stubs: URL(fileURLWithPath: "Stubs"))
/// defer { Task { await server.stop() } }
/// let url = server.baseURL.appendingPathComponent("api/KEY/conditions/q/CA/San_Francisco.json")
/// ```
public final class StubServer: Sendable {
    /// How the server runs. The defaults suit tests; `stubd serve` sets them from its flags.
    public struct Options: Sendable {
        /// Worker threads: one libmicrohttpd daemon (poll: see `Daemon.pollingFlag`) each, fed round-robin. Two measured best on two cores.
        public var threads: Int = 2
        /// Larger request bodies get 413.
        public var maxBodyBytes: Int = 1 << 20
        /// Idle keep-alive connections are closed after this many seconds.
        public var connectionTimeoutSeconds: Int = 30
        /// Each connection's memory for a request's head and its answer's headers: a request head
        /// up to about 14 KB is read (cookies count twice: libmicrohttpd parses them into it), a
        /// larger one gets 431. libmicrohttpd zeroes all of it after every request, so it is kept
        /// small: at its default of 32 KiB that was 7% of the server's CPU, and 16 KiB measured
        /// about 5% more requests per second.
        public var connectionMemoryBytes: Int = 16 * 1024
        /// Connections held at once (hanging and long-polling ones included); one more gets a 503
        /// and is closed. The default stays well below the process's descriptor limit.
        public var maxConnections: Int = StubServer.defaultMaxConnections
        /// Requests the journal keeps per session.
        public var journalCapacity: Int = 1000
        /// Named sessions held at once; a new one past it evicts the one unused longest (and says so in `notice`).
        public var maxSessions: Int = 1000
        /// Bytes all sessions together keep of what they were sent (journal bodies, WebSocket messages,
        /// scenario keys); past it the session unused longest gives its up, and a write that still
        /// does not fit gets a 507.
        public var sessionStorageBytes: Int = SessionStorage.defaultLimit
        /// When set, every admin call but `health` needs `Authorization: Bearer TOKEN`. A server
        /// listening beyond loopback without one keeps its admin API closed.
        public var adminToken: String? = ProcessInfo.processInfo.environment["STUBD_ADMIN_TOKEN"]
        /// Hosts the folder's top level answers in proxy mode (`--as-host`), besides stubd's own
        /// names; a top-level folder named after a host answers that host (see `HostScope`).
        public var asHosts: [String] = []
        /// `--proxy-unknown pass`: in proxy mode, a host the folder does not serve is passed through
        /// to the real host (a CONNECT as a blind tunnel, an absolute-form request forwarded)
        /// instead of refused with a 502 naming it.
        public var passUnknownHosts = false
        /// Host names admin calls may carry besides loopback names and IP addresses (DNS rebinding protection).
        public var allowedHosts: [String] = []
        /// Request headers whose values the journal (`/__stubd/requests`) shows masked, besides
        /// `Authorization`, `Cookie` and `Proxy-Authorization`.
        public var maskedHeaders: [String] = []
        /// Values the journal shows as `<NAME>` wherever they appear (`--secret NAME=VALUE`); a
        /// recorder's own secrets are added to these.
        public var maskedSecrets: [NamedSecret] = []
        /// Runtime stubs (`POST /__stubd/stubs`) one session may hold.
        public var maxRuntimeStubs: Int = 10_000
        /// Bytes a template may render for one answer; past it the request gets a 500 naming the cap.
        public var maxRenderedBytes: Int = StubEngine.defaultMaxRenderedBytes
        /// Told of server events worth a log line, such as an evicted session.
        public var notice: (@Sendable (String) -> Void)?
        /// Reload the directory when it changes.
        public var watch: Bool = false
        /// Called once per request, after the answer is queued.
        public var requestLog: (@Sendable (RequestLogLine) -> Void)?
        /// HTTPS: the local CA, and which ports speak TLS. Set, it also lets a client whose HTTPS proxy
        /// is this server reach the hosts the folder serves (CONNECT). Nil: plain HTTP only.
        public var tls: TLSOptions?
        /// `stubd record` / `stubd serve --proxy`: pass requests on to a real API (and record them).
        public var forwarding: ForwardingOptions?
        /// How forwards and pass-throughs reach real hosts: `--upstream-proxy` (none by default:
        /// `http_proxy` and the like are ignored) and the pass-through's `--timeout`.
        public var upstream = UpstreamSettings()
        /// A pass-through tunnel with no byte either way, or with an end that takes none, for this
        /// long is closed (its thread and its place freed).
        package var tunnelIdleSeconds: Int32 = BlindTunnel.defaultIdleSeconds
        /// Called after each reload attempt: the new route count, or the problems (the old catalog stays).
        public var reloadLog: (@Sendable (Result<StubCatalog, CatalogLoadError>) -> Void)?
        /// `--spec` (repeatable): every load and reload holds each stub to the spec that declares its
        /// operation, and each request is judged by that spec; a violation fails the load like any
        /// other load problem.
        package var contracts: ContractSet?
        /// One spec, as `contracts` (what most in-process servers hold).
        package var contract: APIContract? {
            get { contracts?.contracts.first }
            set { contracts = newValue.map(ContractSet.init) }
        }
        /// `--validate requests=MODE`: with `contracts`, what a request that breaks its operation gets
        /// (the stub and a report of it, by default; 422 with `strict`).
        package var requestValidation: RequestValidationMode = .report
        /// `--graphql-schema`: every load and reload holds each GraphQL route's answers to it and to
        /// the query the route answers; a violation fails the load like any other load problem.
        package var graphQLSchema: GraphQLSchema?

        public init() {}
    }

    /// `http://127.0.0.1:PORT` (`https://…` when the port speaks TLS)
    public let baseURL: URL
    public let host: String
    public let port: UInt16
    /// `https://127.0.0.1:PORT` when a port speaks TLS (`TLSOptions`): the main one or the extra one.
    public let httpsURL: URL?
    /// The CA folder the server issues its certificates from, when it has TLS.
    public let certificateAuthorityDirectory: URL?
    /// The core: catalog, sessions, hits, quotas.
    package let engine: StubEngine
    /// The admin API over the engine and its sessions.
    package let admin: AdminEndpoints
    public let stubsDirectory: URL
    /// The admin token this server requires, if any; its own `StubControl` calls send it.
    public let adminToken: String?
    /// The specs the stubs are held to, if any.
    package let contracts: ContractSet?
    /// The GraphQL schema the GraphQL stubs are held to, if any.
    package let graphQLSchema: GraphQLSchema?
    /// The same engine answering without a socket (`sessionConfiguration`, `urlSession`).
    package let inProcess: InProcessStubs

    private let daemons: [Daemon]
    private let tlsDaemons: [Daemon]
    private let acceptors: [Acceptor]
    private let leaves: LeafCertificates?
    private let router: RequestRouter
    private let routerHandle: CPointer
    private let watcher: (any FolderWatcher)?
    private let stopped = Atomic<Bool>(false)
    private let connections: ConnectionBudget
    /// Each worker's reader of libmicrohttpd's messages, alive while the workers are.
    private let workerMessages: [WorkerMessages]

    /// 1,000, or half the descriptors this process may open when that is fewer.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1000 }
        return max(16, min(1000, Int(clamping: limit.rlim_cur) / 2))
    }

    /// Loads `stubs` and starts serving it. Throws `CatalogLoadError` listing every problem in
    /// the directory, or `BindError` when the address cannot be used. Port 0 picks a free port.
    public static func start(stubs: URL, host: String = "127.0.0.1", port: UInt16 = 0) async throws -> StubServer {
        try await start(stubs: stubs, host: host, port: port, options: Options())
    }

    /// As `start(stubs:host:port:)`, with options.
    public static func start(stubs: URL, host: String = "127.0.0.1", port: UInt16 = 0, options: Options) async throws -> StubServer {
        // Loading reads and parses every file of the folder (10,000 stubs take a few hundred ms):
        // that runs on a queue of its own, not on one of the few threads the test's tasks share.
        try await offThePool { try StubServer(stubs: stubs, host: host, port: port, options: options) }.get()
    }

    /// Where starting and stopping block: off Swift's cooperative pool, so the awaiting task's thread stays free.
    private static let lifecycle = DispatchQueue(label: "stubd.lifecycle", attributes: .concurrent)

    /// Runs `work` on `lifecycle` and returns what it made. The result crosses through a pthread
    /// lock as well as the continuation: ThreadSanitizer sees no order in a continuation resumed
    /// from a Dispatch thread (Swift's executor enqueues past its interceptors), and reported every
    /// field the server's init wrote as raced by the test that read it.
    private static func offThePool<T>(_ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        let handOff = Locked<Result<T, any Error>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lifecycle.async {
                let result = Result { try work() }
                handOff.withLock { $0 = result }
                continuation.resume()
            }
        }
        return handOff.withLock { $0! }
    }

    /// Synchronous start, for the command line.
    public init(stubs: URL, host: String = "127.0.0.1", port: UInt16 = 0, options: Options = Options()) throws {
        let catalog = try StubCatalog.load(stubs: stubs, heldTo: options.contracts, graphQLSchema: options.graphQLSchema)
        contracts = options.contracts
        graphQLSchema = options.graphQLSchema
        stubsDirectory = stubs
        let maskedSecrets = options.maskedSecrets + (options.forwarding?.recorder?.rules.secrets ?? [])
        engine = StubEngine(catalog: catalog, journalCapacity: options.journalCapacity, maxSessions: options.maxSessions,
                            sessionStorage: options.sessionStorageBytes,
                            maxRenderedBytes: options.maxRenderedBytes, notice: options.notice, specs: options.contracts,
                            contractRequests: options.requestValidation.rawValue,
                            graphQLSchema: options.graphQLSchema)
        admin = AdminEndpoints(engine: engine, contracts: options.contracts, maskedHeaders: options.maskedHeaders, maskedSecrets: maskedSecrets,
                               maxRuntimeStubs: options.maxRuntimeStubs)
        if let forwarding = options.forwarding {
            admin.forwarding.withLock {
                $0 = (forwarding.scope == .everything ? "record" : "proxy", forwarding.target.absoluteString, forwarding.recorder != nil)
            }
        }
        inProcess = InProcessStubs(front: InProcessFront(engine: engine, admin: admin, contracts: options.contracts,
                                                         checksRequests: options.requestValidation != .off,
                                                         refusesBrokenRequests: options.requestValidation == .strict))
        adminToken = options.adminToken.flatMap { $0.isEmpty ? nil : $0 }
        let access = AdminAccess(token: adminToken, allowedHosts: options.allowedHosts,
                                 listensBeyondLoopback: !ListeningSocket.isLoopback(host))
        let connections = ConnectionBudget(cap: max(1, options.maxConnections), headDeadlineSeconds: options.connectionTimeoutSeconds)
        self.connections = connections
        let hosts = HostScope(asHosts: options.asHosts)
        let loop = ForwardingLoop()
        var leaves: LeafCertificates?
        var tunnels: TunnelHandOff?
        if let tls = options.tls {
            let engine = self.engine
            let made = LeafCertificates(authority: { () throws(TLSSetupError) in try CertificateAuthority.loadOrCreate(in: tls.caDirectory) },
                                        serves: { name in hosts.resolve(host: name, path: "/", hostFolders: engine.catalog.hostFolders) != .notServed },
                                        notice: options.notice)
            leaves = made
            tunnels = TunnelHandOff(budget: connections, leaves: made)
        }
        self.leaves = leaves
        certificateAuthorityDirectory = options.tls?.caDirectory
        router = RequestRouter(admin: admin, maxBodyBytes: options.maxBodyBytes, connectionMemoryBytes: options.connectionMemoryBytes, adminAccess: access,
                               hosts: hosts, tunnels: tunnels, passUnknownHosts: options.passUnknownHosts,
                               forwarding: options.forwarding.map { forwarding in
                                   var forwarding = forwarding
                                   forwarding.connectionMemoryBytes = options.connectionMemoryBytes
                                   return forwarding
                               }, upstream: options.upstream, loop: loop, tunnelIdleSeconds: options.tunnelIdleSeconds,
                               contracts: options.contracts, validation: options.requestValidation, log: options.requestLog)
        let routerHandle = CPointer(Unmanaged.passRetained(router).toOpaque())
        let router = self.router
        self.routerHandle = routerHandle

        var sockets: [ListeningSocket] = []
        var started: [Daemon] = []
        var startedTLS: [Daemon] = []
        func undo() {
            for d in started + startedTLS { d.stop() }
            for socket in sockets { close(socket.fd) }
            leaves?.releaseAll()
            connections.heads.stop()
            Unmanaged<RequestRouter>.fromOpaque(routerHandle.raw).release()
        }
        do {
            // A port that speaks TLS needs the CA now: a folder that cannot be written stops the start, saying so.
            if let tls = options.tls, tls.servesAPort { try leaves?.prepare() }
            sockets.append(try ListeningSocket.open(host: host, port: port))
            if let extra = options.tls?.extraPort { sockets.append(try ListeningSocket.open(host: host, port: extra)) }
        } catch {
            undo()
            throw error
        }
        for socket in sockets { loop.listen(on: socket.fd) }
        let tlsOnMain = options.tls?.onMainPort == true
        // One daemon per worker thread, fed by our acceptor (see Acceptor for why not MHD's pool).
        var messages: [WorkerMessages] = []
        func startWorker(tls: Bool) -> Daemon? {
            let said = WorkerMessages(router: router, heads: connections.heads)
            messages.append(said)
            let daemon = Daemon.startWorker(router: routerHandle.raw, messages: said, timeoutSeconds: options.connectionTimeoutSeconds,
                                            memoryBytes: options.connectionMemoryBytes, connections: connections, tls: tls ? tunnels : nil)
            said.daemon.store(daemon?.address ?? 0, ordering: .relaxed)
            return daemon
        }
        for _ in 0..<max(1, options.threads) {
            if !tlsOnMain {
                guard let daemon = startWorker(tls: false) else {
                    undo()
                    throw BindError(description: "libmicrohttpd could not start a worker for \(sockets[0].host):\(sockets[0].port)")
                }
                started.append(daemon)
            }
            if let leaves, options.tls != nil {
                guard let daemon = startWorker(tls: true) else {
                    undo()
                    throw BindError(description: "libmicrohttpd could not start a TLS worker (is it built with GnuTLS? `MHD_is_feature_supported(MHD_FEATURE_TLS)`)")
                }
                LeafCertificates.register(leaves, for: daemon)
                startedTLS.append(daemon)
            }
        }
        daemons = started
        tlsDaemons = startedTLS
        tunnels?.attach(tlsDaemons)
        var acceptors = [tlsOnMain ? Acceptor(listener: sockets[0].fd, daemons: startedTLS, budget: connections, tls: true)
                                   : Acceptor(listener: sockets[0].fd, daemons: started, budget: connections)]
        if sockets.count > 1 { acceptors.append(Acceptor(listener: sockets[1].fd, daemons: startedTLS, budget: connections, tls: true)) }
        self.acceptors = acceptors
        workerMessages = messages
        self.host = sockets[0].host
        self.port = sockets[0].port
        baseURL = URL(string: "\(tlsOnMain ? "https" : "http")://\(sockets[0].host):\(sockets[0].port)")!
        httpsURL = tlsOnMain ? baseURL : sockets.count > 1 ? URL(string: "https://\(sockets[1].host):\(sockets[1].port)")! : nil

        if options.watch {
            let router = self.router, log = options.reloadLog, contracts = options.contracts, schema = options.graphQLSchema
            watcher = makeFolderWatcher(root: stubs) {
                // Computed first: `log?(…)` would skip the reload itself when nobody logs.
                let result = Result { () throws(CatalogLoadError) in try StubServer.reload(stubs, contracts, schema, router) }
                log?(result)
            }
        } else {
            watcher = nil
        }
    }

    /// Reloads the directory now. On problems the current catalog stays and the error lists them.
    @discardableResult
    public func reload() throws(CatalogLoadError) -> StubCatalog {
        try StubServer.reload(stubsDirectory, contracts, graphQLSchema, router)
    }

    /// Loads, prepares every answer, then swaps the catalog in; the watcher calls it too.
    private static func reload(_ stubs: URL, _ contracts: ContractSet?, _ schema: GraphQLSchema?,
                               _ router: RequestRouter) throws(CatalogLoadError) -> StubCatalog {
        let catalog = try StubCatalog.load(stubs: stubs, heldTo: contracts, graphQLSchema: schema)
        router.install(catalog)
        return catalog
    }

    /// Stops accepting, lets requests in flight finish (delayed answers are sent at once, hanging
    /// ones closed, long-polls answered, a forward or a render not yet done answered 503
    /// "Stopping"), then stops. Idempotent. The wait for requests in flight (at most half a
    /// second) happens on a queue of its own, not on the cooperative pool.
    public func stop() async {
        _ = await StubServer.offThePool { self.stopSynchronously() }
    }

    /// `stop()` for signal handlers and `deinit`-like paths that cannot await.
    public func stopSynchronously() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        inProcess.close()
        watcher?.stop()
        for acceptor in acceptors { acceptor.stop() }
        engine.sessions.releaseWaiters()
        // Dashboard event streams: no more events; resuming them below ends each one.
        engine.changes.unsubscribeAll()
        _ = router.suspensions.resumeAllForStop()
        router.webSockets.closeAll()
        // In-flight requests finish (their answers are queued already or are being resumed); bounded.
        let deadline = DispatchTime.now().uptimeNanoseconds + 500_000_000
        while router.active.load(ordering: .relaxed) > 0, DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(1000)
        }
        for daemon in daemons { daemon.stop() }
        for daemon in tlsDaemons {
            daemon.stop()
            LeafCertificates.unregister(daemon)
        }
        leaves?.releaseAll()
        connections.heads.stop()
        Unmanaged<RequestRouter>.fromOpaque(routerHandle.raw).release()
    }

    deinit {
        stopSynchronously()
    }
}
