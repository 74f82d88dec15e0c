import Foundation
@testable import StubdEngine

/// Any bytes: the JSON parser returns a value or a `JSONSyntaxError`, never traps, and what it
/// accepts serializes to JSON it accepts again, equal to the first.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(bytes: bytes, count: size)
    guard let value = try? JSONParser.parse(data) else { return 0 }
    let again = try! JSONParser.parse(value.serialized)
    precondition(again == value, "round trip changed \(value.serialized)")
    return 0
}

/// SwiftPM links an executable's entry point as `FuzzJSON_main`; libFuzzer's driver takes it from here.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzJSON_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzJSON)
}
