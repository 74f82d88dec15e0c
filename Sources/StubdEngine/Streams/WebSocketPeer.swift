/// An open WebSocket as its session sees it: the admin API pushes messages to it
/// (`POST /__stubd/websockets/{name}/messages`) without knowing the socket underneath.
package protocol WebSocketPeer: AnyObject, Sendable {
    /// Sends `payload` as a data message, unless the socket is closing by then; never blocks.
    func push(_ payload: WebSocketPayload)
}
