#!/usr/bin/env python3
"""Benchmarks/tls.py: issue 28's HTTPS figures, against a real `stubd serve` (release) and nginx with TLS.

    swift build -c release --product stubd && python3 Benchmarks/tls.py

  - Keep-alive throughput on the 1 KB Benchmarks/Stubs/bench/payload.json (wrk -t2 -c32 -d5s), in ROUNDS
    alternating rounds: stubd over plain HTTP, stubd over HTTPS (`--tls-port`, the same process), nginx
    over HTTPS. Bar: stubd's HTTPS is >= 0.5x its plain HTTP in the same run.
  - Handshakes per second: the same, with `Connection: close`, so every request is a new TLS connection
    (a full handshake: wrk resumes no sessions), for stubd and nginx.
Both present a P-256 ECDSA leaf (stubd's from its CA; nginx's a self-signed one openssl makes here, for
the benchmark only), TLS 1.3 as the client and server agree it. Environment: STUBD_BIN, ROUNDS (3).
Loopback only; every process it starts is stopped.
"""
import os, re, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request
from stubd_process import StubdProcess
from nginx_process import NginxProcess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
PATH = "/bench/payload.json"

NGINX_CONF = """
@USER@
worker_processes 2;
daemon off;
pid @PREFIX@/nginx.pid;
error_log @PREFIX@/error.log warn;
events { worker_connections 4096; }
http {
    default_type application/json;
    sendfile on; tcp_nopush on; tcp_nodelay on; open_file_cache max=1000;
    access_log off;
    keepalive_requests 1000000; keepalive_timeout 65;
    client_body_temp_path @PREFIX@/client_body; proxy_temp_path @PREFIX@/proxy;
    fastcgi_temp_path @PREFIX@/fastcgi; uwsgi_temp_path @PREFIX@/uwsgi; scgi_temp_path @PREFIX@/scgi;
    server {
        listen 127.0.0.1:@PORT@ ssl;
        server_name localhost;
        ssl_certificate @PREFIX@/leaf.pem;
        ssl_certificate_key @PREFIX@/leaf-key.pem;
        root @ROOT@;
    }
}
"""


class NginxTLS:
    """nginx with TLS on a free loopback port, serving the Stubs folder."""

    def __init__(self, root):
        self.prefix = tempfile.mkdtemp(prefix="stubd-bench-nginx-tls-")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", f"{self.prefix}/leaf-key.pem", "-out", f"{self.prefix}/leaf.pem", "-days", "2",
                        "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                       check=True, capture_output=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        conf = NGINX_CONF
        for name, value in {"USER": "user root root;" if os.geteuid() == 0 else "", "PREFIX": self.prefix,
                            "PORT": str(self.port), "ROOT": os.path.abspath(root)}.items():
            conf = conf.replace(f"@{name}@", value)
        with open(f"{self.prefix}/nginx.conf", "w") as f:
            f.write(conf)
        self.proc = subprocess.Popen(["nginx", "-p", self.prefix + "/", "-c", f"{self.prefix}/nginx.conf",
                                      "-e", f"{self.prefix}/error.log"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.url, cafile=f"{self.prefix}/leaf.pem")

    @property
    def url(self):
        return f"https://localhost:{self.port}"

    # Stopped as the plain-HTTP peer is: SIGQUIT, then kill after 5 s, then its temp dir removed.
    stop = NginxProcess.stop


def wait_for(url, cafile=None):
    import ssl
    context = ssl.create_default_context(cafile=cafile) if cafile else None
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + PATH, timeout=1, context=context) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("no 200 from " + url + PATH)


def wrk(url, close=False):
    args = ["wrk", "-t2", "-c32", "-d5s", url + PATH] + (["-H", "Connection: close"] if close else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Socket errors: (.*)", out)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), errors.group(1) if errors else ""


def main():
    ca = tempfile.mkdtemp(prefix="stubd-bench-ca-")
    stubd = StubdProcess(STUBD, os.path.join(REPO, "Benchmarks", "Stubs"), "--no-watch", "--tls-port", "0", "--ca-dir", ca)
    nginx = None
    try:
        deadline = time.time() + 10
        https_port = None
        while https_port is None and time.time() < deadline:
            m = re.search(r"stubd listening on https://127\.0\.0\.1:(\d+)", open(stubd.log.name).read())
            https_port = int(m.group(1)) if m else time.sleep(0.05)
        if https_port is None:
            raise SystemExit("stubd printed no https line")
        stubd_https = f"https://localhost:{https_port}"
        wait_for(stubd_https, cafile=f"{ca}/ca.pem")
        nginx = NginxTLS(os.path.join(REPO, "Benchmarks", "Stubs"))
        rows = {"stubd http": [], "stubd https": [], "nginx https": [], "stubd handshakes": [], "nginx handshakes": []}
        print(f"wrk -t2 -c32 -d5s {PATH}, {ROUNDS} alternating rounds (req/s)")
        for round in range(1, ROUNDS + 1):
            rows["stubd http"].append(wrk(stubd.url)[0])
            rows["stubd https"].append(wrk(stubd_https)[0])
            rows["nginx https"].append(wrk(nginx.url)[0])
            rows["stubd handshakes"].append(wrk(stubd_https, close=True)[0])
            rows["nginx handshakes"].append(wrk(nginx.url, close=True)[0])
            print(f"  round {round}: " + ", ".join(f"{k} {v[-1]:,.0f}" for k, v in rows.items()), flush=True)
        median = {k: statistics.median(v) for k, v in rows.items()}
        for k, v in median.items():
            print(f"  {k:17} median {v:,.0f}  ({', '.join(f'{x:,.0f}' for x in rows[k])})")
        ratios = [h / p for h, p in zip(rows["stubd https"], rows["stubd http"])]
        print(f"stubd HTTPS / HTTP, per round: {', '.join(f'{r:.2f}' for r in ratios)} (bar: >= 0.5 in every round)")
        print(f"stubd HTTPS / nginx HTTPS: {median['stubd https'] / median['nginx https']:.2f}; "
              f"handshakes/s stubd / nginx: {median['stubd handshakes'] / median['nginx handshakes']:.2f}")
        if min(ratios) < 0.5:
            print("FAIL: HTTPS below half of plain HTTP")
            return 1
        return 0
    finally:
        stubd.stop()
        if nginx:
            nginx.stop()
        shutil.rmtree(ca, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
