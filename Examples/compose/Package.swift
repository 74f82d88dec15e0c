// swift-tools-version:6.0
// A user's package, as it would sit in its own repository: a small client (Quotes) and its tests,
// which talk to a `stubd serve` through STUBD_URL with the remote-only helpers. Nothing of the
// server is linked, so the first build is HTTPTypes and four small modules (issue 45 item 1):
// scripts/measure-helper-build copies this package, times its clean build, and runs its tests
// against a real `stubd serve`. docker-compose.yml beside it runs the same as two containers.
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
    dependencies: [.package(path: stubdPath)],
    targets: [
        .target(name: "Quotes"),
        .testTarget(name: "QuotesTests",
                    dependencies: ["Quotes",
                                   .product(name: "StubdXCTestRemote", package: stubd),
                                   .product(name: "StubdTestingRemote", package: stubd),
                                   .product(name: "StubdClient", package: stubd)]),
    ]
)
