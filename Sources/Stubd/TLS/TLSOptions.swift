public import Foundation

/// HTTPS for a server: where its CA lives and which ports speak TLS. With these set, a CONNECT on the
/// plain port (a client's `HTTPS_PROXY`) is answered too: stubd ends the TLS itself, with a leaf for
/// the host the client asked for.
public struct TLSOptions: Sendable {
    /// The local CA's folder; made there on first use.
    public var caDirectory: URL
    /// The server's port speaks HTTPS instead of HTTP (`serve --tls`).
    public var onMainPort: Bool = false
    /// A port for HTTPS beside the plain one (`serve --tls-port`); 0 picks a free one.
    public var extraPort: UInt16?

    public init(caDirectory: URL = CertificateAuthority.defaultDirectory, onMainPort: Bool = false, extraPort: UInt16? = nil) {
        self.caDirectory = caDirectory
        self.onMainPort = onMainPort
        self.extraPort = extraPort
    }

    /// Whether a port serves TLS, so the CA is needed at start rather than at the first CONNECT.
    var servesAPort: Bool { onMainPort || extraPort != nil }
}
