// swift-tools-version:6.0
// Fuzz targets for stubd's parsers, built only by scripts/fuzz (libFuzzer needs -sanitize=fuzzer,
// which also supplies `main`, so this is a package of its own, not part of the root one).
// StubdCore's sources are a symlink: one copy of the code, fuzzed as it ships.
import PackageDescription

let package = Package(
    name: "stubd-fuzz",
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "StubdCore", dependencies: [.product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["StubdCore"]),
        .executableTarget(name: "FuzzManifest", dependencies: ["StubdCore"]),
    ]
)
