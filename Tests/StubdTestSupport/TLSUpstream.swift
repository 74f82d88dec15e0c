public import Foundation

/// An HTTPS upstream with its own self-signed certificate: Python's http.server behind TLS.
public final class TLSUpstream {
    private let upstream: PythonUpstream
    public var port: Int { upstream.port }
    /// The self-signed certificate it serves, for `--ca-file`.
    public let certificate: URL

    public init(serving folder: URL) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        certificate = dir.appendingPathComponent("cert.pem")
        let key = dir.appendingPathComponent("key.pem")
        let made = try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path,
                                                "-out", certificate.path, "-days", "2", "-subj", "/CN=127.0.0.1",
                                                "-addext", "subjectAltName=IP:127.0.0.1"])
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        let script = """
        import http.server, ssl, sys, os
        os.chdir(sys.argv[3])
        class H(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *a): pass
        s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(sys.argv[1], sys.argv[2])
        s.socket = ctx.wrap_socket(s.socket, server_side=True)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """
        upstream = try PythonUpstream(script: script, arguments: [certificate.path, key.path, folder.path])
    }
}
