// swift-tools-version:6.0
// Fuzz targets for stubd's parsers, built only by scripts/fuzz (libFuzzer needs -sanitize=fuzzer,
// which also supplies `main`, so this is a package of its own, not part of the root one).
// StubdCore's and StubdProtocol's sources are symlinks: one copy of the code, fuzzed as it ships.
import PackageDescription

let package = Package(
    name: "stubd-fuzz",
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "StubdProtocol"),
        .target(name: "StubdCore", dependencies: ["StubdProtocol", .product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["StubdCore"]),
        .executableTarget(name: "FuzzManifest", dependencies: ["StubdCore"]),
        .executableTarget(name: "FuzzTemplate", dependencies: ["StubdCore"]),
    ]
)
