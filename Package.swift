// swift-tools-version:6.1
// 6.1 for package traits (TLS, OpenAPI below): Swift 6.1 or later, Xcode 16.3 or later on a Mac.
import PackageDescription

/// Every target's settings, the same strictness everywhere: `any` written where a type is existential; a
/// module's members visible only where it is imported, and an import internal unless it says `public` or
/// `package` (as swift-certificates and Hummingbird build), so what a module shows of another is written.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
                              .enableUpcomingFeature("InternalImportsByDefault")]

/// What the daemon offers beyond serving a Stubs folder, each a package trait, both on by default (the
/// `stubd` binary and a dependency declared without `traits:` have everything). A test package that
/// wants only the in-process server writes `.package(url: …, from: …, traits: [])` and builds neither
/// swift-crypto, swift-certificates nor OpenAPIKit (scripts/measure-helper-build --light times it;
/// scripts/client_side_graph.py fails when the light build reaches them). Each is compiled in behind one
/// `#if` in one file, whose stand-in without the trait throws, saying which trait to enable.
let traitTLS = "TLS", traitOpenAPI = "OpenAPI"
/// The test helpers' in-process socket server (`StubServer`, libmicrohttpd, libcurl, GnuTLS) beside the
/// engine answering without a socket. Off (`traits: []`), a test package links no C library but the
/// YAML parser Yams compiles from its own source, and builds for every Apple platform.
let traitInProcessServer = "InProcessServer"

/// The in-process socket server, only on the platforms libmicrohttpd runs on, and only with the
/// `InProcessServer` trait: without it the test helpers answer through the engine alone, with no socket.
let stubdWhereItRuns: Target.Dependency = .target(name: "Stubd", condition: .when(platforms: [.linux, .macOS], traits: [traitInProcessServer]))

let package = Package(
    name: "stubd",
    // macOS 15 for the server (Synchronization's Atomic). The client-side products need only
    // async/await and Duration, so an iOS 16 app's test bundle can use them.
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "stubd", targets: ["StubdCLI"]),
        // Named apart from the `stubd` executable: a Mac's file system and Xcode's schemes do not tell
        // names apart by case. The module a test imports is still `Stubd`.
        .library(name: "StubdServer", targets: ["Stubd"]),
        .library(name: "StubdClient", targets: ["StubdClient"]),
        .library(name: "StubdXCTest", targets: ["StubdXCTest"]),
        .library(name: "StubdTesting", targets: ["StubdTesting"]),
        // The engine answering URLSession in the test process, without a socket (what the helpers use).
        .library(name: "StubdInProcess", targets: ["StubdInProcess"]),
    ],
    traits: [
        .trait(name: traitTLS, description: "HTTPS: the local certificate authority (`stubd ca`), `serve --tls` and --tls-port, "
                                           + "CONNECT (a client's HTTPS_PROXY). Builds swift-crypto and swift-certificates."),
        .trait(name: traitOpenAPI, description: "Reading OpenAPI specs (`serve --spec`, `stubd check --spec`, `import openapi`): "
                                               + "OpenAPIKit checks that a document is OpenAPI. Builds OpenAPIKit."),
        .trait(name: traitInProcessServer, description: "The test helpers start a StubServer (a socket on 127.0.0.1, libmicrohttpd) on Linux "
                                                        + "and macOS, besides answering URLSession without a socket. Links libmicrohttpd, libcurl and GnuTLS."),
        .default(enabledTraits: [traitTLS, traitOpenAPI, traitInProcessServer]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The local certificate authority (`stubd ca`, `serve --tls`, CONNECT): the server's alone,
        // never the client-side products', and only with the TLS trait.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        // `swift package generate-documentation`: the DocC catalogs of the client-side products (scripts/test
        // builds them with warnings as errors). A command plugin only: nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The C that Swift cannot import: a module map and a shim header, nothing else.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),

        // libcurl, for passing requests on to a real API (`stubd record`, `serve --proxy`): Foundation's
        // URLSession on Linux cannot be told to trust a CA file or to skip verification.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),

        // GnuTLS, which libmicrohttpd's TLS is built on: the certificate callback that picks a leaf by
        // the name the client asked for (SNI) hands GnuTLS its own certificate and key objects.
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls",
                       providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]),

        // Shared by the server and its clients: the admin API's documents, and `Locked`. Foundation and
        // HTTPTypes only (plain Swift: an app can link it).
        .target(name: "StubdProtocol", dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),

        // Talks to a running stubd over the admin API. Foundation and HTTPTypes only, so an app can link it.
        .target(name: "StubdClient",
                dependencies: ["StubdProtocol", .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),

        // The engine: files → catalog → matching → quotas → sessions → the answer, with the clock,
        // state, the streams' model, templates and the coverage tally. Plain Swift, no socket and no
        // tool: what it asks of a spec it asks through a protocol of its own (SpecAnswers).
        .target(name: "StubdEngine",
                dependencies: ["StubdProtocol", .product(name: "Yams", package: "Yams"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),

        // The tools above the engine: the contract (OpenAPI checks), the importers (OpenAPI, HAR,
        // WireMock, Postman), recording, drift, and the admin API that reaches them.
        .target(name: "StubdCore",
                dependencies: ["StubdEngine", "StubdProtocol", .product(name: "Yams", package: "Yams"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               // Whether a spec is an OpenAPI 3.0 or 3.1 document at all (Contract/OpenAPIStructure).
                               .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: .when(traits: [traitOpenAPI])),
                               .product(name: "OpenAPIKit30", package: "OpenAPIKit", condition: .when(traits: [traitOpenAPI]))],
                swiftSettings: strict),

        // The engine answering URLSession inside the test process, without a socket: a URLProtocol per
        // session in front of the engine and the admin API. No C library: it builds for iOS, tvOS,
        // watchOS and visionOS as for Linux and macOS.
        .target(name: "StubdInProcess",
                dependencies: ["StubdEngine", "StubdCore", "StubdClient", "StubdProtocol",
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),

        // The libmicrohttpd binding and StubServer; a thin layer over StubdCore.
        .target(name: "Stubd",
                dependencies: ["StubdEngine", "StubdCore", "StubdClient", "StubdInProcess", "CMicroHTTPD", "CCurl", "CGnuTLS",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               // The local CA (TLS/CertificateAuthority), with the TLS trait only.
                               .product(name: "X509", package: "swift-certificates", condition: .when(traits: [traitTLS])),
                               .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: [traitTLS]))],
                // The dashboard's page, style sheet and script, compiled into the binary as byte arrays
                // (PackageResources): nothing to ship beside it, no Bundle to find at run time.
                resources: [.embedInCode("Dashboard/dashboard.html"), .embedInCode("Dashboard/dashboard.css"),
                            .embedInCode("Dashboard/dashboard.js")],
                swiftSettings: strict),

        // The test helpers: every test gets a URLSession answered without a socket (StubdInProcess), on
        // every platform; with the InProcessServer trait, on Linux and macOS, an in-process StubServer
        // too; with STUBD_URL set, a session on that daemon instead.
        .target(name: "StubdXCTest", dependencies: [stubdWhereItRuns, "StubdClient", "StubdInProcess"], swiftSettings: strict),
        .target(name: "StubdTesting", dependencies: [stubdWhereItRuns, "StubdClient", "StubdInProcess"], swiftSettings: strict),

        // The `stubd` binary. The folder is Sources/StubdCLI, not Sources/stubd: on a case-insensitive
        // file system (a Mac, Windows) that would be the same folder as Sources/Stubd.
        .executableTarget(name: "StubdCLI",
                          dependencies: ["Stubd",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Logging", package: "swift-log")],
                          swiftSettings: strict),

        // What the test targets share: temporary Stubs folders, server start-up, the Python upstreams,
        // plain HTTP and socket helpers. A target, not a product: no user of the package sees it.
        // It re-exports StubdCoreTestSupport, the part that needs nothing of the server.
        .target(name: "StubdTestSupport", dependencies: ["StubdCoreTestSupport", "Stubd", "StubdEngine", "StubdCore", "StubdClient"],
                path: "Tests/StubdTestSupport", swiftSettings: strict),
        // Temporary Stubs folders, child processes, the test Python, the repository's paths: Foundation only,
        // so StubdCoreTests build against StubdCore alone and link no libmicrohttpd, libcurl or GnuTLS.
        .target(name: "StubdCoreTestSupport", path: "Tests/StubdCoreTestSupport", swiftSettings: strict),
        // Fixtures/ is read through #filePath, not bundled.
        .testTarget(name: "StubdCoreTests", dependencies: ["StubdEngine", "StubdCore", "StubdCoreTestSupport"], exclude: ["Fixtures"],
                    swiftSettings: strict),
        .testTarget(name: "StubdServerTests",
                    dependencies: ["Stubd", "StubdClient", "StubdXCTest", "StubdTesting", "StubdTestSupport"],
                    exclude: ["Fixtures"], swiftSettings: strict),
        // The engine answering URLSession without a socket: this target links no libmicrohttpd, so
        // what passes here passes where none can be linked.
        .testTarget(name: "StubdInProcessTests", dependencies: ["StubdInProcess", "StubdClient", "StubdProtocol", "StubdCoreTestSupport"],
                    swiftSettings: strict),
        // The transport's types tested without a socket (the lifecycle, the request slot, the behaviour
        // decisions, the WebSocket handshake): StubdServerTests are the ones that open sockets.
        .testTarget(name: "StubdTransportTests", dependencies: ["Stubd", "StubdEngine", "StubdCore", "StubdProtocol"], swiftSettings: strict),

        // In-process figures for Benchmarks/run.py: the core's cost per request, the fixture's start/stop cycle.
        .executableTarget(name: "stubd-bench", dependencies: ["Stubd", "StubdInProcess", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Benchmarks/Sources/stubd-bench",
                          swiftSettings: strict),

        // The worked example: an app-style weather client and its tests (Examples/WeatherApp).
        .target(name: "WeatherService", path: "Examples/WeatherApp/Sources/WeatherService", swiftSettings: strict),
        .testTarget(name: "WeatherServiceTests",
                    dependencies: ["WeatherService", "StubdXCTest", "StubdTesting", "StubdInProcess"],
                    path: "Examples/WeatherApp/Tests/WeatherServiceTests", swiftSettings: strict),
    ]
)

// The libFuzzer targets (Fuzz/Sources, run by scripts/fuzz), declared only when STUBD_FUZZ is set: built
// with -sanitize=fuzzer, libFuzzer supplies their `main`, so an ordinary `swift build` could not link
// them. Declared here, against the StubdEngine target itself, so they fuzz the code as it ships and
// build with its dependencies as they are (a second manifest restating StubdCore drifted and broke).
if Context.environment["STUBD_FUZZ"] != nil {
    package.targets += ["FuzzJSON", "FuzzManifest", "FuzzTemplate", "FuzzWebSocketFrames", "FuzzPatch"].map { name -> Target in
        .executableTarget(name: name, dependencies: ["StubdEngine", .product(name: "HTTPTypes", package: "swift-http-types")],
                          path: "Fuzz/Sources/\(name)", swiftSettings: strict)
    }
}

// scripts/check-client-side builds this manifest, in a scratch folder holding only the client side's
// sources, with STUBD_CLIENT_SIDE set: the client-side targets as declared above, Stubd and every
// package but HTTPTypes and Yams taken away, as an iOS test bundle gets them (built there with the
// traits off: the OpenAPI trait's OpenAPIKit is taken away too). One manifest, so the check cannot
// drift from what ships.
if Context.environment["STUBD_CLIENT_SIDE"] != nil {
    let clientSide: Set<String> = ["StubdProtocol", "StubdClient", "StubdEngine", "StubdCore", "StubdInProcess", "StubdXCTest", "StubdTesting"]
    let packagesKept = ["/swift-http-types", "/Yams"]
    package.targets = package.targets.filter { clientSide.contains($0.name) }
    for target in package.targets {
        target.dependencies = target.dependencies.filter { dependency in
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): clientSide.contains(name)
            case .productItem(_, let package, _, _): package == "swift-http-types" || package == "Yams"
            @unknown default: true
            }
        }
    }
    package.products = package.products.filter { clientSide.contains($0.name) }
    package.dependencies = package.dependencies.filter { dependency in
        if case .sourceControl(_, let location, _) = dependency.kind { packagesKept.contains { location.hasSuffix($0) } } else { false }
    }
}
