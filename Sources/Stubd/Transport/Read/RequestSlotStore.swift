/// Where libmicrohttpd keeps a request's `RequestSlot` for us (its `con_cls`), as the router reads and
/// writes it: the pointer to the pointer stays in `DaemonCallbacks`, which wraps it as it arrives.
struct RequestSlotStore {
    private let pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    init(_ pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>) { self.pointer = pointer }

    /// What the slot holds now.
    @inline(__always)
    var slot: RequestSlot { RequestSlot(pointer.pointee) }

    /// Stores `slot` (a context is retained until the completion notice releases it).
    @inline(__always)
    func keep(_ slot: RequestSlot) { pointer.pointee = slot.raw }
}
