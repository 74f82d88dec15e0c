#!/usr/bin/env python3
"""Benchmarks/hardening.py: issue 11's bars, measured against a real `stubd serve` (release).

    swift build -c release --product stubd && python3 Benchmarks/hardening.py

Prints one line per bar with the figure, the bar, and PASS/FAIL:
  - 5,000 hanging connections, then 5,000 slowloris connections: a normal client gets 200 or 503
    meanwhile, and SIGTERM exits 0 within 1 s (RUNS runs, default 3);
  - throughput of a plain route with 1,000 pending long-polls (500 on a pattern, 500 on a route)
    against the same server without, in one run (wrk, interleaved rounds);
  - a YAML alias bomb posted as a runtime stub: refused, and how long it took;
  - a 1 MiB JSON body of escapes to an admin call: how long it took;
  - RSS of 3,000 sessions, and of 100,000 session-creating requests under --max-sessions 1000;
  - issue 38 item 9: new requests (admin health, the dashboard, a stub) served in 5 s while 1,000
    slow clients hold every connection with half-sent heads (slowloris);
  - issue 38 item 10: pass-through tunnels to a host that stops reading, and the server's relay
    threads (named stubd-tunnel) after the idle limit (--tunnel-idle 3): every one gone, every
    client closed;
  - issue 38 item 8: RSS and the quotas report after 50,000 distinct quota keys, then the clock
    moved past every window (no key left);
  - issue 38 item 5: a plain request's latency while two requests are checked against
    backtracking-prone patterns (`(.*a){20}`, `^(a+)+$`).
Environment: STUBD_BIN, RUNS (3), WRK_DURATION (3s), ROUNDS (3), ONLY (comma-separated parts:
parsers, sessions, long_polls, floods, slow_heads, stuck_tunnels, quota_keys, patterns). Loopback only; every process it
starts is stopped before it exits.
"""
import json, os, re, resource, signal, socket, subprocess, sys, tempfile, threading, time, urllib.request
from stubd_process import StubdProcess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
RUNS = int(os.environ.get("RUNS", "3"))
WRK_DURATION = os.environ.get("WRK_DURATION", "3s")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
results = []


def report(name, figure, bar, ok):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  {name}: {figure}  (bar: {bar})", flush=True)


def stubs_folder():
    d = tempfile.mkdtemp(prefix="stubd-hardening-")
    os.makedirs(os.path.join(d, "bench"))
    with open(os.path.join(REPO, "Benchmarks/Stubs/bench/payload.json"), "rb") as src, open(os.path.join(d, "bench/payload.json"), "wb") as dst:
        dst.write(src.read())
    with open(os.path.join(d, "stubd.yml"), "w") as f:
        f.write("routes:\n  - { name: hang, request: { path: /hang }, response: { fault: hang } }\n")
    return d


def Server(stubs, *flags):
    return StubdProcess(STUBD, stubs, "--no-watch", *flags)


def connections(port, count, payload):
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(payload)
        socks.append(s)
    return socks


def status_of(url, timeout=3):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:
        return f"no answer ({type(e).__name__})"


def request(url, method="GET", body=None, headers=None):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            code, text = r.status, r.read()
    except urllib.error.HTTPError as e:
        code, text = e.code, e.read()
    return code, text, time.perf_counter() - start


def keep_alive_get(sock, reader, target, extra_headers=""):
    """One GET on a kept-alive connection, its answer read to the end (headers, then Content-Length
    bytes) so the next can follow: many requests without a connection each."""
    sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n{extra_headers}\r\n".encode())
    length = 0
    while True:
        line = reader.readline()
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        if line in (b"\r\n", b""):
            break
    reader.read(length)


def readable(sock):
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b"" or True
    except BlockingIOError:
        return False
    finally:
        sock.setblocking(True)


def wrk(url):
    out = subprocess.run(["wrk", "-t2", "-c32", "-d" + WRK_DURATION, url], capture_output=True, text=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def floods(stubs):
    for run in range(1, RUNS + 1):
        server = Server(stubs)
        hanging = connections(server.port, 5000, b"GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        during_hang = status_of(server.url + "/bench/payload.json")
        slow = connections(server.port, 5000, b"GET /bench/payload.json HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        during_slow = status_of(server.url + "/bench/payload.json")
        seconds, code = server.stop()
        for s in hanging + slow:
            s.close()
        ok = during_hang in (200, 503) and during_slow in (200, 503) and seconds < 1 and code == 0
        report(f"flood run {run}", f"normal client {during_hang} during 5,000 hangs, {during_slow} during 5,000 slowloris; "
               f"SIGTERM exit {code} in {seconds * 1000:.0f} ms", "200/503, exit 0 < 1 s", ok)


def long_polls(stubs):
    # 1,000 polls and wrk's 32 connections are more than the default cap of 1,000.
    server = Server(stubs, "--max-connections", "2000")
    url = server.url + "/bench/payload.json"
    wrk(url)  # warm-up
    without, with_polls = [], []
    for _ in range(ROUNDS):
        without.append(wrk(url))
        polls = connections(server.port, 500, b"GET /__stubd/hits/wait?route=GET%20/**&count=1000000000&timeout=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        polls += connections(server.port, 500, b"GET /__stubd/hits/wait?route=hang&count=5&timeout=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.3)
        answered = sum(1 for p in polls if readable(p))
        if answered:
            raise SystemExit(f"{answered} long-polls were answered at once: the measurement would be of nothing")
        with_polls.append(wrk(url))
        for s in polls:
            s.close()
        time.sleep(1.5)  # the server notices the clients left
    server.stop()
    med = lambda xs: sorted(xs)[len(xs) // 2]
    ratio = med(with_polls) / med(without)
    report("plain route with 1,000 pending long-polls", f"{med(with_polls):,.0f} vs {med(without):,.0f} req/s = {ratio:.2f}x",
           ">= 0.8x", ratio >= 0.8)


def parsers(stubs):
    server = Server(stubs)
    levels = ["a: &a [" + ",".join(['"lol"'] * 9) + "]"]
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        levels.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    bomb = ("request: {path: /bomb}\nresponse:\n  json:\n" + "".join("    " + l + "\n" for l in levels)).encode()
    code, text, seconds = request(server.url + "/__stubd/stubs", "POST", bomb, {"Content-Type": "application/json"})
    report("YAML alias bomb", f"{len(bomb)} bytes → {code} in {seconds * 1000:.1f} ms (client-side, loopback)",
           "refused < 10 ms", code == 400 and seconds < 0.010)
    body = ('{"seconds": 1, "note": "' + "\\u00e9" * ((1 << 20) // 6 - 16) + '"}').encode()
    code, text, seconds = request(server.url + "/__stubd/clock/advance", "POST", body, {"Content-Type": "application/json"})
    report("1 MiB JSON body of escapes", f"{len(body) >> 10} KiB → {code} in {seconds * 1000:.1f} ms (client-side, loopback)",
           "< 50 ms", code == 200 and seconds < 0.050)
    server.stop()


def sessions(stubs):
    server = Server(stubs, "--max-sessions", "5000")
    before = server.rss_mb()
    for i in range(3000):
        request(server.url + "/bench/payload.json", headers={"X-Stubd-Session": f"s{i}"})
    grown = server.rss_mb() - before
    server.stop()
    report("3,000 sessions", f"RSS +{grown:.1f} MB", "< 100 MB", grown < 100)

    server = Server(stubs, "--max-sessions", "1000")
    marks = []
    s = socket.create_connection(("127.0.0.1", server.port))
    f = s.makefile("rb")
    for i in range(100_000):
        keep_alive_get(s, f, "/bench/payload.json", f"X-Stubd-Session: n{i}\r\n")
        if i + 1 in (2_000, 10_000, 100_000):
            marks.append(server.rss_mb())
    s.close()
    server.stop()
    report("100,000 session-creating requests, --max-sessions 1000",
           "RSS " + " → ".join(f"{m:.0f} MB" for m in marks) + " (after 2k, 10k, 100k)",
           "bounded by the cap", marks[-1] <= marks[0] + 20)


def raw_status(port, path, timeout=3):
    """The status of one `Connection: close` request on a new socket, or why there was none."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            head = s.recv(64)
            return int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else "no answer"
    except OSError as e:
        return f"no answer ({type(e).__name__})"


def slow_heads(stubs):
    server = Server(stubs, "--max-connections", "1000")
    slow = connections(server.port, 1000, b"GET /bench/payload.json HTTP/1.1\r\nHost: x\r\n")
    stop = time.time() + 20
    def trickle():
        # One header line every 10 s on each, as issue 38 describes.
        while time.time() < stop:
            time.sleep(10)
            for s in slow:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass
    threading.Thread(target=trickle, daemon=True).start()
    time.sleep(1.5)  # past the grace period a slow head gives its place up
    counts, seconds_end = {}, time.time() + 5
    paths = ["/__stubd/health", "/__stubd/ui", "/bench/payload.json"]
    i = 0
    while time.time() < seconds_end:
        status = raw_status(server.port, paths[i % 3])
        counts[status] = counts.get(status, 0) + 1
        i += 1
    stop = 0
    server.stop()
    for s in slow:
        s.close()
    served = counts.get(200, 0)
    report("new requests while 1,000 slow clients hold connections",
           f"{served} of {i} served in 5 s (admin health, dashboard, stub; others: "
           f"{ {k: v for k, v in counts.items() if k != 200} })", "every one served", served == i and served > 0)


def deaf_host():
    """A host that takes connections and never reads: returns its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held = []
    def run():
        while True:
            c, _ = listener.accept()
            c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            held.append(c)
    threading.Thread(target=run, daemon=True).start()
    return listener.getsockname()[1]


def threads_of(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(l for l in f if l.startswith("Threads:")).split()[1])


def tunnel_threads_of(pid):
    """The relay threads (BlindTunnel names each `stubd-tunnel`) among the process's threads."""
    count = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as f:
                count += f.read().strip() == "stubd-tunnel"
        except FileNotFoundError:  # the thread ended while we looked
            pass
    return count


def stuck_tunnels(stubs, count=50, idle=3):
    port = deaf_host()
    server = Server(stubs, "--proxy-unknown", "pass", "--tunnel-idle", str(idle))
    before = threads_of(server.proc.pid)
    clients = []
    for _ in range(count):
        c = socket.create_connection(("127.0.0.1", server.port))
        # [::ffff:127.0.0.1] is loopback, but not a name stubd answers itself: a host it passes through.
        c.sendall(f"CONNECT [::ffff:127.0.0.1]:{port} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert c.recv(64).startswith(b"HTTP/1.1 200"), "the tunnel did not open"
        c.setblocking(False)
        clients.append(c)
    chunk = b"a" * 65536
    fill_until = time.time() + 2
    while time.time() < fill_until:  # fill every buffer between the clients and the host
        for c in clients:
            try:
                c.send(chunk)
            except BlockingIOError:
                pass
    stuck, relays = threads_of(server.proc.pid), tunnel_threads_of(server.proc.pid)
    start = time.time()
    # The relay threads are counted by name: the process's total also holds libdispatch's worker
    # pool, which the server's utility-QoS timers (HeadWatch, RequestRouter's departures) keep at
    # one thread more than at start-up (measured: 10 → 11 with no tunnel thread left), so the total
    # is reported but not held to `before`.
    while tunnel_threads_of(server.proc.pid) > 0 and time.time() - start < idle + 10:
        time.sleep(0.1)
    left, seconds = tunnel_threads_of(server.proc.pid), time.time() - start
    after = threads_of(server.proc.pid)
    closed = 0
    for c in clients:
        try:
            closed += c.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        c.close()
    server.stop()
    report(f"{count} tunnels to a host that stops reading (--tunnel-idle {idle})",
           f"relay threads {relays} while stuck → {left} {seconds:.1f} s later (all threads {before} → {stuck} → {after}); "
           f"{closed} of {count} clients closed",
           "every relay thread gone within idle + 2 s, every client closed",
           left == 0 and seconds <= idle + 2 and closed == count)


def quota_keys(stubs):
    """Issue 38, item 8: 50,000 distinct keys of a quota keyed by a query parameter, then the clock
    moved past every window."""
    d = tempfile.mkdtemp(prefix="stubd-hardening-quota-")
    with open(os.path.join(d, "q.json"), "w") as f:
        f.write("{}")
    with open(os.path.join(d, "stubd.yml"), "w") as f:
        f.write('clock: { virtual: "2016-08-30T00:00:20Z" }\n'
                'quotas:\n  - { name: keyed, routes: ["GET /q.json"], key: { query: k }, limits: ["10/minute"] }\n')
    server = Server(d)
    before = server.rss_mb()
    s = socket.create_connection(("127.0.0.1", server.port))
    f = s.makefile("rb")
    for i in range(50_000):
        keep_alive_get(s, f, f"/q.json?k=key{i}")
    s.close()
    grown = server.rss_mb()
    code, page, took = request(server.url + "/__stubd/quotas")
    keys = json.loads(page)["quotas"][0].get("keyCount")
    request(server.url + "/__stubd/clock/advance", "POST", b'{"seconds": 61}', {"Content-Type": "application/json"})
    after = server.rss_mb()
    _, page_after, _ = request(server.url + "/__stubd/quotas")
    left = json.loads(page_after)["quotas"][0]
    server.stop()
    report("50,000 distinct quota keys, then the clock past every window",
           f"RSS {before:.0f} → {grown:.0f} → {after:.0f} MB; GET /__stubd/quotas {len(page) / 1e6:.2f} MB in {took * 1000:.0f} ms "
           f"(keyCount {keys}); keys left after the move: {left.get('keyCount', len(left['keys']))}",
           "report page < 1 MB, no key left", len(page) < 1e6 and left.get("keyCount", len(left["keys"])) == 0)


def patterns(stubs):
    """Issue 38, item 5: a plain request's latency while two requests are checked against
    backtracking-prone patterns (`(.*a){20}`: 80 s a request with ICU)."""
    import threading
    d = tempfile.mkdtemp(prefix="stubd-hardening-pattern-")
    for name in ("search.json", "hello.json"):
        with open(os.path.join(d, name), "w") as f:
            f.write("{}")
    # The spec PatternServerTests serves too: one file, so the benchmark and the test check the same patterns.
    spec = os.path.join(REPO, "Tests/StubdServerTests/Fixtures/OpenAPI/patterns-3.0.yaml")
    server = Server(d, "--spec", spec, "--validate", "requests=strict")
    slow = []
    hard = "a" * 60 + "x"
    threads = [threading.Thread(target=lambda q=q: slow.append(request(server.url + "/search?" + q)))
               for q in (f"q={hard}", f"q={hard}&strict={'a' * 40}b")]
    for t in threads:
        t.start()
    time.sleep(0.05)
    code, _, took = request(server.url + "/hello")
    for t in threads:
        t.join(120)
    server.stop()
    report("a plain request while two pathological patterns are checked",
           f"{took * 1000:.0f} ms (status {code}); the two took " + ", ".join(f"{s[2] * 1000:.0f} ms ({s[0]})" for s in slow),
           "< 500 ms", code == 200 and took < 0.5)


if __name__ == "__main__":
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit[1], limit[1]))
    stubs = stubs_folder()
    parts = [parsers, sessions, long_polls, floods, slow_heads, stuck_tunnels, quota_keys, patterns]
    only = [p for p in os.environ.get("ONLY", "").split(",") if p]
    for part in parts:
        if not only or part.__name__ in only:
            part(stubs)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    sys.exit(0 if all(results) else 1)
