// swift-tools-version:6.1
// A user's package, as it would sit in its own repository: a small client (Quotes) and its tests.
// stubd is declared with `traits: []`: the test helpers answer through the engine in the test
// process, without a socket, and link no libmicrohttpd, libcurl or GnuTLS (as in an iOS test
// bundle); with STUBD_URL set they take a session on that `stubd serve` instead.
// scripts/measure-helper-build copies this package, times its clean build, and runs its tests both
// ways. docker-compose.yml beside it runs them against a stubd container.
import Foundation
import PackageDescription

// In your repository, depend on stubd by URL, and `stubd` is the package's name:
//   .package(url: "https://github.com/<you>/stubd", from: "0.1.0")
// Here it is this checkout, by path; SwiftPM names a path dependency after its folder.
let stubdPath = "../.."
let stubd = URL(fileURLWithPath: stubdPath, relativeTo: URL(fileURLWithPath: Context.packageDirectory + "/"))
    .standardizedFileURL.lastPathComponent

let package = Package(
    name: "QuotesApp",
    platforms: [.macOS(.v15), .iOS(.v16)],
    dependencies: [.package(path: stubdPath, traits: [])],
    targets: [
        .target(name: "Quotes"),
        .testTarget(name: "QuotesTests",
                    dependencies: ["Quotes",
                                   .product(name: "StubdXCTest", package: stubd),
                                   .product(name: "StubdTesting", package: stubd),
                                   .product(name: "StubdClient", package: stubd)]),
    ]
)
