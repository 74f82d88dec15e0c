"""The API that make-hars.sh captures through mitmproxy: a little of everything a HAR import meets
(JSON with query variants, an answer that changes, a JSON POST, a binary body, gzip, a redirect, a
CORS preflight, a bearer token echoed back with a session cookie, a slow answer). Port on argv[1]
(0: a free one); prints the port it bound."""
import gzip, json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")
PAGE = b"""<!doctype html><title>loading</title><script>
(async () => {
  const api = "http://127.0.0.1:" + location.port;
  const read = async (url, init) => (await fetch(api + url, init)).arrayBuffer();
  await read("/data/2.5/weather?q=London&appid=k3y-0123456789");
  await read("/flaky");
  await read("/flaky");
  await read("/v1/reports", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({title: "weekly"})});
  await read("/logo.png");
  await read("/old");  // a redirect the browser follows: two entries
  try { await fetch("http://127.0.0.1:9/nothing"); } catch (e) {}  // no answer: a failed entry
  document.title = "done";
})();
</script>"""
flaky_calls = {}  # by Host: each capture sees a 503 first


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def origin(self):
        return self.headers.get("Origin", "http://app.example")

    def send(self, status, body=b"", content_type=None, headers=()):
        self.send_response(status)
        if "Origin" in self.headers:
            headers = list(headers) + [("Access-Control-Allow-Origin", self.origin())] * (
                not any(n == "Access-Control-Allow-Origin" for n, _ in headers))
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/data/2.5/weather":
            city = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("q", "")
            temp = {"London": 11.5, "Paris": 14.0}.get(city, 0)
            self.send(200, json.dumps({"name": city, "main": {"temp": temp}}).encode(), "application/json; charset=utf-8",
                      [("X-RateLimit-Remaining", "59")])
        elif path == "/api/items.json":
            self.send(200, b'[{"id":1,"name":"kettle"},{"id":2,"name":"teapot"}]', "application/json")
        elif path == "/flaky":
            host = self.headers.get("Host")
            flaky_calls[host] = flaky_calls.get(host, 0) + 1
            if flaky_calls[host] == 1:
                self.send(503, b'{"error":"try again"}', "application/json", [("Retry-After", "1")])
            else:
                self.send(200, b'{"ok":true}', "application/json")
        elif path == "/logo.png":
            self.send(200, PNG, "image/png")
        elif path == "/notes.txt":
            text = ("a line of notes that compresses well\n" * 200).encode()
            if "gzip" in self.headers.get("Accept-Encoding", ""):
                self.send(200, gzip.compress(text), "text/plain", [("Content-Encoding", "gzip")])
            else:
                self.send(200, text, "text/plain")
        elif path == "/old":
            host = self.headers.get("Host")
            self.send(302, b"", None, [("Location", f"http://{host}/api/items.json")])
        elif path == "/me":
            token = self.headers.get("Authorization", "").removeprefix("Bearer ")
            self.send(200, json.dumps({"user": "ada", "token": token}).encode(), "application/json",
                      [("Set-Cookie", "session=s3ss10n-0123456789abcdef; Path=/; HttpOnly")])
        elif path == "/page.html":
            # make-chromium-har.py's page: served from localhost, it calls the API on 127.0.0.1, another origin.
            self.send(200, PAGE, "text/html; charset=utf-8")
        elif path == "/slow":
            time.sleep(0.3)
            self.send(200, b'{"slow":true}', "application/json")
        else:
            self.send(404, b'{"error":"not found"}', "application/json")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/v1/reports":
            report = json.loads(body)
            self.send(201, json.dumps({"id": 7, "title": report.get("title")}).encode(), "application/json",
                      [("Location", "/v1/reports/7"), ("Access-Control-Allow-Origin", self.origin())])
        else:
            self.send(404, b"", "application/json")

    def do_OPTIONS(self):
        self.send(204, b"", None, [("Access-Control-Allow-Origin", self.origin()),
                                   ("Access-Control-Allow-Methods", "POST, GET"),
                                   ("Access-Control-Allow-Headers", "Content-Type"),
                                   ("Access-Control-Max-Age", "600")])

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
