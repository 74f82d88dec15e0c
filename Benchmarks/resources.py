#!/usr/bin/env python3
"""Benchmarks/resources.py: issue 42's two bars for resources (CRUD per session).

    swift build -c release --product stubd && python3 Benchmarks/resources.py

1. 10,000 items list and page in under 5 ms: a resource seeded with 10,000 items; each request
   below is sent REPEAT times on one keep-alive connection and the median wall time printed
   (client included, loopback): a page in each style, a filtered page (every item compared), and
   the whole list (10,000 items in one answer).
2. A resource route costs no more than 2x a canned route's server CPU per request: the server's
   user+system CPU (/proc/PID/stat, as Benchmarks/cpu.py) over one `wrk -t2 -c32 -d4s` run on a
   canned route, then on a resource's read of one item and a page of 20, same server, same run,
   rounds alternating; medians and the ratios printed.

Environment: STUBD_BIN (.build/release/stubd), ROUNDS (5), REPEAT (200). Every process it starts
is stopped before it exits.
"""
import http.client, json, os, re, shutil, statistics, subprocess, tempfile, time
from stubd_process import StubdProcess
import run

STUBD = os.environ.get("STUBD_BIN", run.STUBD)
ROUNDS = int(os.environ.get("ROUNDS", "5"))
REPEAT = int(os.environ.get("REPEAT", "200"))
TICK = os.sysconf("SC_CLK_TCK")


def stubs_folder():
    root = tempfile.mkdtemp(prefix="stubd-resources-")
    os.makedirs(os.path.join(root, "__files", "resources"))
    items = [{"id": i, "title": f"todo {i}", "done": i % 2 == 0, "userId": i % 10} for i in range(1, 10_001)]
    with open(os.path.join(root, "__files", "resources", "todos.json"), "w") as f:
        json.dump(items, f)
    # The canned route answers the same bytes a resource's read of item 5000 does.
    with open(os.path.join(root, "canned.json"), "w") as f:
        json.dump(items[4999], f, separators=(",", ":"))
    with open(os.path.join(root, "stubd.yml"), "w") as f:
        f.write("resources:\n  - path: /todos\n")
    return root


def median_ms(conn, path):
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read()
        times.append((time.perf_counter() - start) * 1000)
        assert r.status == 200, (path, r.status, body[:200])
    return statistics.median(times), len(body), r.getheader("X-Total-Count")


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def measure(url, pid):
    c0 = cpu(pid)
    out = subprocess.run(["wrk", "-t2", "-c32", "-d4s", url], capture_output=True, text=True, check=True).stdout
    c1 = cpu(pid)
    n = int(re.search(r"(\d+) requests in", out).group(1))
    return n / 4, (c1 - c0) / n * 1e6


def main():
    if not os.access(STUBD, os.X_OK):
        raise SystemExit(f"{STUBD} is not built: swift build -c release --product stubd")
    root = stubs_folder()
    server = StubdProcess(STUBD, root, "--no-watch")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        print(f"10,000 items, median of {REPEAT} requests on one keep-alive connection:\n")
        for path in ["/todos?page=250&per_page=20", "/todos?limit=20&offset=9980", "/todos?done=true&limit=20&offset=4000",
                     "/todos/5000", "/todos"]:
            ms, size, total = median_ms(conn, path)
            print(f"  GET {path:40} {ms:7.3f} ms  {size:>8,} bytes  X-Total-Count {total}")
        conn.close()

        targets = [("canned", f"{server.url}/canned"), ("resource read", f"{server.url}/todos/5000"),
                   ("resource page", f"{server.url}/todos?limit=20&offset=100")]
        rows = {name: [] for name, _ in targets}
        for _, url in targets:
            subprocess.run(["wrk", "-t2", "-c32", "-d1s", url], capture_output=True)
        for r in range(1, ROUNDS + 1):
            for name, url in targets:
                rows[name].append(measure(url, server.proc.pid))
                rps, us = rows[name][-1]
                print(f"  round {r}/{ROUNDS} {name:14} {rps:>9,.0f} req/s  {us:6.2f} µs CPU per request", flush=True)
        med = {name: statistics.median(x[1] for x in rows[name]) for name in rows}
        print(f"\nserver CPU per request, medians of {ROUNDS} rounds (wrk -t2 -c32 -d4s):\n")
        for name in rows:
            print(f"  {name:14} {med[name]:6.2f} µs  {med[name] / med['canned']:.2f}x canned")
    finally:
        server.stop()
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
