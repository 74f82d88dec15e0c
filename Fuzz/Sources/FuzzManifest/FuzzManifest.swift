import Foundation
@testable import StubdEngine

private let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-fuzz-root")

/// Any text as a manifest, and as a runtime stub: problems or routes, never a trap or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
    var manifest = ManifestParser(file: "stubd.yml", reader: StubFileReader(root: root))
    _ = manifest.parse(text)
    var runtime = ManifestParser(file: "stub", reader: StubFileReader(root: root))
    _ = runtime.parseRuntimeRoute(text, id: "s1")
    return 0
}

/// SwiftPM links an executable's entry point as `FuzzManifest_main`; libFuzzer's driver takes it from here.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzManifest_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzManifest)
}
