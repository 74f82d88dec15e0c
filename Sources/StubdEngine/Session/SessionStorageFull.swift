/// A write that would take what sessions keep past `SessionStorage.limit`, even with every other
/// session's kept data given up (or with this session's alone): refused with 507, naming the budget
/// and how to raise it.
package struct SessionStorageFull: Error, Sendable, CustomStringConvertible {
    /// The budget, in bytes.
    package let limit: Int
    /// What the refused write would have kept.
    package let bytes: Int
    /// What this session holds already.
    package let held: Int

    package var description: String {
        "keeping \(bytes) more bytes would take this session's stored data (\(held) bytes already: journal bodies, "
            + "WebSocket messages, scenario keys, resource items) past the sessions' storage budget of \(limit) bytes, even after giving up "
            + "the other sessions' data; reset the session (POST /__stubd/reset) or raise the budget (stubd serve --session-storage BYTES)"
    }
}
