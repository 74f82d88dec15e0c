/// What takes over a connection after a `101 Switching Protocols` (a WebSocket): libmicrohttpd hands
/// it the socket and the bytes it read past the request, and waits for `close` through `handle`.
protocol UpgradedConnection: AnyObject, Sendable {
    /// Called once, on a libmicrohttpd worker: must not block. `handle.close()` exactly once when done.
    func start(socket: Int32, extra: [UInt8], handle: UpgradeHandle)
}
