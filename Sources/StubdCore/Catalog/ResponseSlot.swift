/// An answer's place: which catalog (`StubCatalog.generation`) and where in its `responses`.
package struct ResponseSlot: Sendable, Hashable {
    package let generation: UInt64
    package let index: Int
}
