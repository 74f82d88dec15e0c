import Foundation
@testable import StubdEngine

/// The limits a patched item is held to, small so that inputs reach them.
private let definition = ResourceDefinition(name: "items", pattern: try! PathPattern(parsing: "/items"), maxItemBytes: 1_024)

/// A JSON array `[item, patch]`: the item is set as a resource's only item (the admin API's `PUT`,
/// refused past `maxItemBytes`), then changed by the patch as JSON Patch (RFC 6902) and as Merge Patch
/// (RFC 7396). Whatever the patch, nothing traps, and the item kept fits the resource's limits
/// (its bytes as written, 512 levels) and writes JSON that reads back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatch(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard case .array(let parts)? = try? JSONParser.parse(Data(bytes: bytes, count: size)), parts.count == 2,
          case .object(var fields) = parts[0] else { return 0 }
    fields["id"] = .number(1)
    let store = ResourceStore(definition)
    guard (try? store.replaceAll([.object(fields)])) != nil else { return 0 }
    let patch = parts[1]
    _ = try? store.modify(parent: "", id: "1", stamp: [:]) { old throws(ResourceRefusal) in
        try JSONPatch.apply(patch, to: old, within: definition.itemLimits)
    }
    checkWithinLimits(store)
    _ = try? store.modify(parent: "", id: "1", stamp: [:]) { old throws(ResourceRefusal) in JSONMergePatch.apply(patch, to: old) }
    checkWithinLimits(store)
    return 0
}

private func checkWithinLimits(_ store: ResourceStore) {
    for item in store.allItems() {
        let limits = definition.itemLimits
        precondition(limits.excess(of: item) == nil, "an item past the limits was kept: \(item.serialized.prefix(200))")
        let text = item.serialized
        precondition(text.utf8.count <= limits.maxBytes, "\(text.utf8.count) bytes kept, past \(limits.maxBytes)")
        precondition((try? JSONParser.parse(Data(text.utf8))) == item, "the kept item does not read back: \(text.prefix(200))")
    }
}

/// SwiftPM links an executable's entry point as `FuzzPatch_main`; libFuzzer's driver takes it from here.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzPatch_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzPatch)
}
