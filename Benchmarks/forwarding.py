#!/usr/bin/env python3
"""Benchmarks/forwarding.py: what `stubd serve --proxy` holds whatever the target sends (issue 23,
items 5 and 9), against a real `stubd serve` child and a Python upstream on loopback.

    swift build -c release --product stubd && python3 Benchmarks/forwarding.py

One fresh stubd per case; its peak RSS (VmHWM) after curl is done with it:
  - a gzip bomb (1 MB on the wire, 1 GiB decoded) read at full speed, and at 2 MB/s for 8 s;
  - a 200 MB body, and a body that never ends, read at 2 MB/s for 8 s;
  - an answer with 20 KB of headers: a 502, not an empty reply (curl exit 52).
Environment: STUBD_BIN (.build/release/stubd), BAR_MB (150). Loopback only; every process it starts
is stopped before it exits. Flags it passes: --proxy only, so an older stubd can be measured too.
"""
import http.server, os, subprocess, sys, tempfile, threading
from gzip_bomb import gzip_bomb
from stubd_process import StubdProcess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
BAR_MB = float(os.environ.get("BAR_MB", "150"))
MB = 1 << 20


BOMB = gzip_bomb(1024)


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *a):
        pass

    def head(self, length=None, encoding=None, extra=()):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        for name, value in extra:
            self.send_header(name, value)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def do_GET(self):
        chunk = b"x" * 65536
        try:
            if self.path == "/bomb":
                self.head(len(BOMB), "gzip")
                self.wfile.write(BOMB)
            elif self.path == "/big":
                self.head(200 * MB)
                for _ in range(200 * MB // len(chunk)):
                    self.wfile.write(chunk)
            elif self.path == "/endless":
                self.head()
                while True:
                    self.wfile.write(chunk)
            elif self.path == "/headers":
                self.head(2, extra=[(f"X-Big-{i}", "v" * 1000) for i in range(20)])
                self.wfile.write(b"ok")
        except OSError:
            pass


def case(name, path, curl_flags, upstream_url, bar_mb=BAR_MB, quiet=False):
    stubd = StubdProcess(STUBD, tempfile.mkdtemp(prefix="stubd-fwd-"), "--proxy", upstream_url, level="notice")
    try:
        r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", *curl_flags,
                            stubd.url + path], capture_output=True, text=True)
        with open(f"/proc/{stubd.proc.pid}/status") as f:
            peak = int(next(l for l in f if l.startswith("VmHWM")).split()[1]) / 1024
    finally:
        stubd.stop()
    status, size = r.stdout.split()
    ok = peak <= bar_mb
    if not quiet:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: VmHWM {peak:.0f} MB; curl status {status}, {int(size) / MB:.0f} MB received, "
              f"exit {r.returncode}  (bar: VmHWM <= {bar_mb:.0f} MB)", flush=True)
    return ok, status, r.returncode


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{server.server_address[1]}"
    print(f"stubd: {STUBD}", flush=True)
    results = [
        case("gzip bomb, client at full speed", "/bomb", ["--max-time", "120"], upstream)[0],
        case("gzip bomb, client at 2 MB/s for 8 s", "/bomb", ["--max-time", "8", "--limit-rate", "2M"], upstream)[0],
        case("200 MB body, client at 2 MB/s for 8 s", "/big", ["--max-time", "8", "--limit-rate", "2M"], upstream)[0],
        case("endless body, client at 2 MB/s for 8 s", "/endless", ["--max-time", "8", "--limit-rate", "2M"], upstream)[0],
    ]
    _, status, code = case("20 KB of answer headers", "/headers", ["--max-time", "10"], upstream, quiet=True)
    ok = status == "502" and code == 0
    print(f"{'PASS' if ok else 'FAIL'}  20 KB of answer headers: status {status}, curl exit {code}  (bar: a 502, not exit 52)")
    results.append(ok)
    server.shutdown()
    print(f"forwarding: {sum(results)} of {len(results)} bars met")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
