public import Foundation

/// A reverse proxy on 127.0.0.1 in front of a server, writing down every exchange that goes through
/// it: what a real client sent and what it got back, byte for byte, even when the client keeps its
/// URLSession to itself (StubdClient). The `Host` and `Origin` headers pass through unchanged, so
/// the server judges each request as if it came straight from the client. An event stream is
/// answered with its head only, and the connection closed.
public final class RecordingRelay {
    /// One request and its answer, as they crossed the relay.
    public struct Exchange: Sendable, Decodable {
        public let method: String
        /// The request target as sent: path and query.
        public let target: String
        public let headers: [[String]]
        public let body: Data
        public let status: Int
        public let responseHeaders: [[String]]
        public let responseBody: Data

        public func header(_ name: String) -> String? {
            headers.first { $0[0].lowercased() == name.lowercased() }?[1]
        }

        public func responseHeader(_ name: String) -> String? {
            responseHeaders.first { $0[0].lowercased() == name.lowercased() }?[1]
        }
    }

    private let program: PythonUpstream
    private let log: URL
    public var url: URL { program.url }

    public init(to port: UInt16) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-relay-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)  // the relay appends to it; exchanges() reads it
        program = try PythonUpstream(script: Self.script, arguments: [String(port), log.path])
    }

    deinit { try? FileManager.default.removeItem(at: log) }

    /// Every exchange so far, in the order the answers came back. An exchange is written down before
    /// its answer goes to the client, so a call that returned is in the list.
    public func exchanges() throws -> [Exchange] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Exchange.self, from: Data($0.utf8)) }
    }

    private static let script = #"""
        import base64, http.client, json, sys, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        upstream_port, log_path = int(sys.argv[1]), sys.argv[2]
        lock = threading.Lock()
        HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection", "content-length"}

        class Relay(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def relay(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP]
                upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
                upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for k, v in headers:
                    upstream.putheader(k, v)
                if body or self.command in ("POST", "PUT", "PATCH"):
                    upstream.putheader("Content-Length", str(len(body)))
                upstream.endheaders(body)
                response = upstream.getresponse()
                streaming = (response.getheader("Content-Type") or "").startswith("text/event-stream")
                data = b"" if streaming else response.read()
                upstream.close()
                answer = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP]
                record = {"method": self.command, "target": self.path, "headers": [[k, v] for k, v in headers],
                          "body": base64.b64encode(body).decode(), "status": response.status,
                          "responseHeaders": [[k, v] for k, v in answer],
                          "responseBody": base64.b64encode(data).decode()}
                with lock, open(log_path, "a") as log:
                    log.write(json.dumps(record) + "\n")
                self.send_response(response.status, response.reason)
                for k, v in answer:
                    self.send_header(k, v)
                if streaming:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                elif self.command == "HEAD":
                    self.send_header("Content-Length", response.getheader("Content-Length") or "0")
                elif response.status not in (204, 304):
                    self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = relay

        server = ThreadingHTTPServer(("127.0.0.1", 0), Relay)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
