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
  - RSS of 3,000 sessions, and of 100,000 session-creating requests under --max-sessions 1000.
Environment: STUBD_BIN, RUNS (3), WRK_DURATION (3s), ROUNDS (3). Loopback only; every process it
starts is stopped before it exits.
"""
import json, os, re, resource, signal, socket, subprocess, sys, tempfile, time, urllib.request
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
    with open(os.path.join(REPO, "Stubs/bench/payload.json"), "rb") as src, open(os.path.join(d, "bench/payload.json"), "wb") as dst:
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
        s.sendall(f"GET /bench/payload.json HTTP/1.1\r\nHost: x\r\nX-Stubd-Session: n{i}\r\n\r\n".encode())
        length = 0
        while True:
            line = f.readline()
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            if line in (b"\r\n", b""):
                break
        f.read(length)
        if i + 1 in (2_000, 10_000, 100_000):
            marks.append(server.rss_mb())
    s.close()
    server.stop()
    report("100,000 session-creating requests, --max-sessions 1000",
           "RSS " + " → ".join(f"{m:.0f} MB" for m in marks) + " (after 2k, 10k, 100k)",
           "bounded by the cap", marks[-1] <= marks[0] + 20)


if __name__ == "__main__":
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit[1], limit[1]))
    stubs = stubs_folder()
    parsers(stubs)
    sessions(stubs)
    long_polls(stubs)
    floods(stubs)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    sys.exit(0 if all(results) else 1)
