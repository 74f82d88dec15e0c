#!/usr/bin/env python3
"""Benchmarks/scale.py: issue 12's bars, "the engine at scale", against a real `stubd serve` (release).

    swift build -c release --product stubd && python3 Benchmarks/scale.py

Prints one PASS/FAIL line per bar with the figure and the bar:
  - patterned stubs shaped like the weather example (`api/{key}/conditions/q/CA/City_N.json`):
    throughput (wrk -t2 -c32) on the last and the first city with 10, 100 and 10,000 files, one
    server per folder, rounds interleaved across them, medians compared with the 10-file server;
  - an unmatched request (a typo) at 10,000 patterned routes, 404 with its nearest routes: median
    and p90 of 200 requests over one keep-alive connection;
  - RSS across RELOADS reloads of a 2 MB folder under `--watch` (one file rewritten each time, the
    next write only once the server serves the new content);
  - a quota keyed by a path parameter (the weather API key) against the same route shape without one;
  - the request log (issue 13): default `stubd serve` (info, one line per request, to a file) against
    `--log-level warning`; and with standard output a pipe nobody reads, 10,000 keep-alive requests
    all answered and SIGTERM exiting 0 within 1 s.
Environment: STUBD_BIN, WRK_DURATION (3s), ROUNDS (3), RELOADS (1000). Loopback only; every process
and folder it makes is removed before it exits.
"""
import http.client, json, os, re, shutil, signal, statistics, subprocess, sys, tempfile, time
from stubd_process import StubdProcess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
WRK_DURATION = os.environ.get("WRK_DURATION", "3s")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
RELOADS = int(os.environ.get("RELOADS", "1000"))
results, folders = [], []
BODY = json.dumps({"current_observation": {"temp_f": 76.5, "weather": "Partly Cloudy", "padding": "x" * 900}})


def report(name, figure, bar, ok):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  {name}: {figure}  (bar: {bar})", flush=True)


def folder(files):
    d = tempfile.mkdtemp(prefix="stubd-scale-")
    folders.append(d)
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(text)
    return d


def cities(count, prefix="api"):
    return {f"{prefix}/{{key}}/conditions/q/CA/City_{i}.json": BODY for i in range(count)}


def Server(stubs, *flags, level="warning"):
    return StubdProcess(STUBD, stubs, *flags, level=level)


def wrk(url, duration=WRK_DURATION):
    out = subprocess.run(["wrk", "-t2", "-c32", "-d" + duration, url], capture_output=True, text=True).stdout
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise SystemExit(f"wrk got {non2xx.group(1)} non-2xx answers from {url}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    return r.status, r.read()


def patterned():
    counts = [10, 100, 10_000]
    servers = {n: Server(folder(cities(n)), "--no-watch") for n in counts}
    try:
        for n, s in servers.items():
            wrk(s.url + f"/api/abc123/conditions/q/CA/City_{n - 1}.json", "1s")
        rates = {(n, which): [] for n in counts for which in ("last", "first")}
        for _ in range(ROUNDS):
            for n, s in servers.items():
                rates[(n, "last")].append(wrk(s.url + f"/api/abc123/conditions/q/CA/City_{n - 1}.json"))
                rates[(n, "first")].append(wrk(s.url + "/api/abc123/conditions/q/CA/City_0.json"))
        med = {k: statistics.median(v) for k, v in rates.items()}
        for n in counts:
            print(f"      {n:>6} patterned stubs: last city {med[(n, 'last')]:,.0f} req/s, first {med[(n, 'first')]:,.0f} req/s")
        for n, bar in ((100, 0.95), (10_000, 0.9)):
            ratio = min(med[(n, w)] / med[(10, w)] for w in ("last", "first"))
            report(f"{n:,} patterned stubs vs 10", f"{ratio:.2f}× (the lower of first and last city)", f"≥ {bar}×", ratio >= bar)

        conn = http.client.HTTPConnection("127.0.0.1", servers[10_000].port)
        times, body = [], b""
        for i in range(200):
            start = time.perf_counter()
            status, body = get(conn, f"/api/abc123/conditions/q/CA/Citty_{i * 37 % 10_000}.json")
            times.append((time.perf_counter() - start) * 1000)
            assert status == 404, status
        nearest = json.loads(body).get("nearest", [])
        times.sort()
        median, p90 = times[len(times) // 2], times[len(times) * 9 // 10]
        print(f"      404 body names {len(nearest)} nearest, first: {nearest[0]['route'] if nearest else '-'}")
        report("unmatched request at 10,000 patterned routes", f"median {median:.2f} ms, p90 {p90:.2f} ms, {len(nearest)} nearest named",
               "< 2 ms", median < 2 and len(nearest) > 0)
    finally:
        for s in servers.values():
            s.stop()


def reloads():
    files = {f"data/{d}/item_{i}.json": json.dumps({"id": i, "padding": "y" * 10_000}) for d in range(10) for i in range(20)}
    files["edited.json"] = json.dumps({"v": 0})
    root = folder(files)
    size = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(root) for f in fs)
    server = Server(root)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        get(conn, "/data/0/item_0.json")
        start_rss, after100, started = server.rss_mb(), None, time.time()
        for v in range(1, RELOADS + 1):
            with open(os.path.join(root, "edited.json"), "w") as f:
                f.write(json.dumps({"v": v}))
            deadline = time.time() + 5
            while json.loads(get(conn, "/edited.json")[1]).get("v") != v:
                if time.time() > deadline:
                    raise SystemExit(f"reload {v} not served within 5 s")
                time.sleep(0.002)
            if v == 100:
                after100 = server.rss_mb()
        per = (time.time() - started) / RELOADS * 1000
        end_rss = server.rss_mb()
        print(f"      {size / 1e6:.1f} MB folder, {RELOADS} reloads, {per:.0f} ms per edit-to-served; RSS {start_rss:.0f} MB at start, "
              f"{after100 if after100 is not None else float('nan'):.0f} MB after 100, {end_rss:.0f} MB after {RELOADS}")
        report(f"RSS across {RELOADS} reloads", f"{end_rss - start_rss:+.1f} MB", "within +30 MB", end_rss - start_rss <= 30)
    finally:
        server.stop()


def keyed_quota():
    files = cities(10)
    files.update(cities(10, prefix="free"))
    files["stubd.yml"] = ('quotas:\n  - name: weather\n    routes: ["GET /api/{key}/**"]\n    key: { path: key }\n'
                          '    limits: ["1000000000000/day"]\n')
    server = Server(folder(files), "--no-watch")
    try:
        quota_url, plain_url = server.url + "/api/KEY1/conditions/q/CA/City_3.json", server.url + "/free/KEY1/conditions/q/CA/City_3.json"
        wrk(quota_url, "1s"), wrk(plain_url, "1s")
        pairs = [(wrk(quota_url), wrk(plain_url)) for _ in range(max(3, ROUNDS * 2))]
        ratio = statistics.median(q / p for q, p in pairs)
        print(f"      keyed quota {statistics.median(q for q, _ in pairs):,.0f} req/s, plain {statistics.median(p for _, p in pairs):,.0f} req/s")
        report("quota keyed by a path parameter vs the same route without", f"{ratio:.2f}×", "≥ 0.9×", ratio >= 0.9)
    finally:
        server.stop()


def logging():
    root = folder({"bench/payload.json": BODY})
    logged, quiet = Server(root, "--no-watch", level="info"), Server(root, "--no-watch")
    try:
        urls = (logged.url + "/bench/payload.json", quiet.url + "/bench/payload.json")
        wrk(urls[0], "1s"), wrk(urls[1], "1s")
        pairs = [(wrk(urls[0]), wrk(urls[1])) for _ in range(max(3, ROUNDS))]
        ratio = statistics.median(a / b for a, b in pairs)
        lines = sum(1 for _ in open(logged.log.name))
        print(f"      info log to a file {statistics.median(a for a, _ in pairs):,.0f} req/s ({lines:,} lines written), "
              f"--log-level warning {statistics.median(b for _, b in pairs):,.0f} req/s")
        report("default request log vs --log-level warning", f"{ratio:.2f}×", "≥ 0.7×", ratio >= 0.7)
    finally:
        logged.stop()
        quiet.stop()

    proc = subprocess.Popen([STUBD, "serve", "--stubs", root, "--port", "0", "--no-watch"], stdout=subprocess.PIPE)
    try:
        port = int(re.search(rb":(\d+) ", proc.stdout.readline()).group(1))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        answered = 0
        try:
            for _ in range(10_000):
                if get(conn, "/bench/payload.json")[0] == 200:
                    answered += 1
        except OSError:
            pass
        start = time.time()
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = "none (killed after 5 s)"
        seconds = time.time() - start
        report("stdout an undrained pipe", f"{answered:,} of 10,000 keep-alive requests answered; SIGTERM exit {code} in {seconds * 1000:.0f} ms",
               "all answered, exit 0 < 1 s", answered == 10_000 and code == 0 and seconds < 1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


if __name__ == "__main__":
    if not os.access(STUBD, os.X_OK):
        raise SystemExit(f"no stubd at {STUBD}: swift build -c release --product stubd")
    try:
        print(f"stubd scale benchmark: {os.cpu_count()} CPU(s), wrk -t2 -c32 -d{WRK_DURATION}, {ROUNDS} round(s)")
        patterned()
        keyed_quota()
        logging()
        reloads()
    finally:
        for d in folders:
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(0 if all(results) else 1)
