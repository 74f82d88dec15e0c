public import Foundation

/// An upstream that sends big answers as fast as it can (Python's http.server): what a real API
/// under load, a download or an attacker sends through `stubd record` / `serve --proxy`.
///
/// - `/big/N`: N bytes, byte i being i % 251 (so a lost, doubled or reordered piece shows), with a Content-Length.
/// - `/gzip/N`: the same N bytes gzip-encoded as they are sent (no Content-Length; the end closes).
/// - `/bomb/MIB`: MIB MiB of zeros, gzip-encoded in about MIB KB (a decompression bomb).
/// - `/endless`: the pattern without end.
/// - `/sent`: how many body bytes it has written in all so far (the others count toward it).
public final class StreamingUpstream {
    private let upstream: PythonUpstream
    public var port: Int { upstream.port }
    public var url: URL { upstream.url }

    public init() throws {
        // Benchmarks/gzip_bomb.py, which Benchmarks/forwarding.py sends too.
        let benchmarks = repositoryRoot.appendingPathComponent("Benchmarks")
        let script = #"""
        import http.server, sys, zlib, threading
        sys.dont_write_bytecode = True  # no __pycache__ left in Benchmarks/
        sys.path.insert(0, sys.argv[1])
        from gzip_bomb import gzip_bomb
        BLOCK = bytes(range(251)) * 261
        lock = threading.Lock()
        sent = [0]
        bombs = {}

        def bomb(mib):
            if mib not in bombs: bombs[mib] = gzip_bomb(mib)
            return bombs[mib]

        def pattern(n):
            while n > 0:
                k = min(n, len(BLOCK))
                yield BLOCK[:k]
                n -= k

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"
            def log_message(self, *a): pass
            def write(self, data):
                self.wfile.write(data)
                with lock: sent[0] += len(data)
            def head(self, length=None, encoding=None):
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                if encoding: self.send_header("Content-Encoding", encoding)
                if length is not None: self.send_header("Content-Length", str(length))
                self.end_headers()
            def do_GET(self):
                parts = self.path.split("/")
                kind = parts[1]
                n = int(parts[2]) if len(parts) > 2 and parts[2] else 0
                try:
                    if kind == "sent":
                        with lock: body = str(sent[0]).encode()
                        self.head(len(body)); self.wfile.write(body)
                    elif kind == "big":
                        self.head(n)
                        for chunk in pattern(n): self.write(chunk)
                    elif kind == "gzip":
                        self.head(encoding="gzip")
                        c = zlib.compressobj(1, zlib.DEFLATED, 31)
                        for chunk in pattern(n): self.write(c.compress(chunk))
                        self.write(c.flush())
                    elif kind == "bomb":
                        data = bomb(n)
                        self.head(len(data), "gzip")
                        for i in range(0, len(data), 65536): self.write(data[i:i + 65536])
                    elif kind == "endless":
                        self.head()
                        while True: self.write(BLOCK)
                    else:
                        self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
                except OSError:
                    pass

        s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """#
        upstream = try PythonUpstream(script: script, arguments: [benchmarks.path])
    }

    /// Body bytes written so far, over all requests.
    public func sent() throws -> Int {
        let r = try run("/usr/bin/curl", ["-s", "--max-time", "10", url.absoluteString + "/sent"])
        return Int(r.output) ?? -1
    }

    /// 261 periods of the pattern, to compare against a piece at a time.
    private static let periods: [UInt8] = (0..<(251 * 261)).map { UInt8($0 % 251) }

    /// Whether `data` (its first byte being byte `offset` of the answer) is the pattern `/big` and `/gzip` send.
    public static func isPattern(_ data: Data, from offset: Int = 0) -> Bool {
        data.withUnsafeBytes { raw in
            periods.withUnsafeBytes { periods in
                var i = 0
                while i < raw.count {
                    let phase = (offset + i) % 251
                    let n = min(raw.count - i, periods.count - phase)
                    if memcmp(raw.baseAddress! + i, periods.baseAddress! + phase, n) != 0 { return false }
                    i += n
                }
                return true
            }
        }
    }
}
