public import Foundation

/// An upstream that answers each path with exact bytes (Python's http.server writing them raw): for
/// answers no well-behaved server sends, such as `Set-Cookie: ;`. A path it does not know gets a 404.
public final class RawUpstream {
    private let upstream: PythonUpstream
    public var port: Int { upstream.port }
    public var url: URL { upstream.url }

    /// `answers`: path (without the query) → the whole raw response, head and body.
    public init(answers: [String: Data]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (i, (path, raw)) in answers.enumerated() {
            try raw.write(to: dir.appendingPathComponent("\(i).raw"))
            try Data(path.utf8).write(to: dir.appendingPathComponent("\(i).path"))
        }
        let script = """
        import http.server, sys, os, glob
        d = sys.argv[1]
        answers = {}
        for p in glob.glob(os.path.join(d, "*.path")):
            answers[open(p, "rb").read().decode()] = open(p[:-5] + ".raw", "rb").read()
        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def answer(self):
                n = int(self.headers.get("Content-Length") or 0)
                if n: self.rfile.read(n)
                raw = answers.get(self.path.split("?")[0])
                if raw is None: raw = b"HTTP/1.1 404 Not Found\\r\\nContent-Length: 0\\r\\n\\r\\n"
                self.wfile.write(raw)
                self.wfile.flush()
                self.close_connection = True
            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = answer
        s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """
        upstream = try PythonUpstream(script: script, arguments: [dir.path])
    }

    /// A raw response with these header lines (`Name: value`), a Content-Length and the body.
    public static func response(status: String = "200 OK", headers: [String], body: Data) -> Data {
        var head = "HTTP/1.1 \(status)\r\n"
        for h in headers { head += h + "\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }
}
