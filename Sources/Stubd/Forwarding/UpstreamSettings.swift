public import Foundation

/// How stubd reaches real hosts on its own behalf: every forward (`record`, `serve --proxy`) and
/// every pass-through (`serve --proxy-unknown pass`: tunnels and plain requests for hosts the
/// folder does not serve).
public struct UpstreamSettings: Sendable {
    /// `--upstream-proxy`: forwards and tunnels go through this HTTP proxy. Nil goes direct, whatever
    /// `http_proxy`, `https_proxy` or `ALL_PROXY` say: they may name stubd itself.
    public var proxy: URL?
    /// `--timeout` for a pass-through: no answer after this long gets a 504 (a tunnel that cannot
    /// connect in this long, a 502).
    public var passThroughTimeoutSeconds: Double = 30

    public init() {}
}
