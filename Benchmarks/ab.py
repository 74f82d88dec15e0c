#!/usr/bin/env python3
"""Benchmarks/ab.py: one stubd build against another on the request path, rounds interleaved.

    STUBD_A=/path/to/base/stubd STUBD_B=.build/release/stubd python3 Benchmarks/ab.py

The "costs nothing" bars (coverage counting: B ≥ 0.97× of A; the dashboard with nobody watching:
≥ 0.98×; issue 25's "speed unchanged") compare a build with a feature against the build before it,
measured in the same run, since this VM's run-to-run noise is larger than the differences sought.

Shapes, each with the default log on (`--log-level info`, one line per request to a file, as a
user's terminal or compose log has it) unless LOG_LEVEL says otherwise:
  - the plain 1 KB route (Benchmarks/Stubs/bench/payload.json), keep-alive, at 32 and at 128 connections;
  - one patterned route among 10,000 patterned stubs (`GET /api/{key}/item{i}/{id}.json`).
  - one route under a quota keyed by a path parameter (the weather API key), 10 patterned stubs.
A and B are started once per shape, and measured in turn, the order flipped every round: A B, B A, A B …
(ROUNDS pairs), so that neither always runs right after the other's run (whose log writer may still be
busy) nor always first. Printed: the
median req/s and p99 of each, the ratio of the medians, the median of the per-pair ratios, and each
server's own CPU per request (user + system of its process over the run, /proc/PID/stat, as cpu.py
counts it): on this 2-vCPU machine wrk and the server share the cores, so CPU per request is the
steadier figure when the machine is busy.

The same binary with and without a feature works too: FLAGS_A / FLAGS_B are extra `serve` flags, e.g.
issue 26's "spec on vs off" bar (≥ 0.85×) on the plain route, which Benchmarks/bench-openapi.yaml
describes as an operation with its response schema:

    STUBD_A=.build/release/stubd FLAGS_B="--spec Benchmarks/bench-openapi.yaml" python3 Benchmarks/ab.py

Environment: STUBD_A, STUBD_B (release binaries), FLAGS_A, FLAGS_B, DURATION (3s), ROUNDS (5),
LOG_LEVEL (info), SHAPES (all; "plain" for the plain route at c32 only; "c128" for it at 128 connections only; "patterned" for the 10,000 patterned only;
"quota" for the keyed quota only), PLAIN_PATH
(/bench/payload.json; add a query such as `?units=metric` for the spec to check one).
Loopback only; every process it starts is stopped before it exits.
"""
import os, re, shlex, shutil, statistics, subprocess, tempfile
from stubd_process import StubdProcess
from cpu import cpu

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
A = os.environ.get("STUBD_A")
B = os.environ.get("STUBD_B", os.path.join(REPO, ".build/release/stubd"))
DURATION = os.environ.get("DURATION", "3s")
ROUNDS = int(os.environ.get("ROUNDS", "5"))
LOG_LEVEL = os.environ.get("LOG_LEVEL", "info")
FLAGS = {"A": shlex.split(os.environ.get("FLAGS_A", "")), "B": shlex.split(os.environ.get("FLAGS_B", ""))}
SHAPES = os.environ.get("SHAPES", "all")
PLAIN = os.environ.get("PLAIN_PATH", "/bench/payload.json")
PATTERNED = 10_000


def wrk(url, connections, pid):
    """One wrk run: (req/s, p99 ms, the server's CPU µs per request); non-2xx answers make the run fail loudly."""
    u0, s0 = cpu([pid])
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{DURATION}", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    u1, s1 = cpu([pid])
    if "Non-2xx" in out:
        raise SystemExit(f"{url} answered non-2xx:\n{out}")
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return (float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit],
            (u1 - u0 + s1 - s0) / requests * 1e6)


def patterned_folder():
    """10,000 patterned stubs in one manifest; returns (folder, the path of one in the middle)."""
    folder = tempfile.mkdtemp(prefix="stubd-ab-")
    lines = ["routes:"]
    for i in range(PATTERNED):
        lines.append(f"  - request: {{ method: GET, path: '/api/{{key}}/item{i}/{{id}}.json' }}")
        lines.append(f"    response: {{ status: 200, body: '{{\"item\": {i}}}' }}")
    with open(os.path.join(folder, "stubd.yml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return folder, f"/api/k3y/item{PATTERNED // 2}/42.json"


def keyed_quota_folder():
    """Ten weather-shaped patterned stubs under a quota keyed by the API key in the path."""
    folder = tempfile.mkdtemp(prefix="stubd-ab-")
    for i in range(10):
        os.makedirs(os.path.join(folder, "api/{key}/conditions"), exist_ok=True)
        with open(os.path.join(folder, f"api/{{key}}/conditions/City_{i}.json"), "w") as f:
            f.write('{"temp_f": 76.5, "city": %d}' % i)
    with open(os.path.join(folder, "stubd.yml"), "w") as f:
        f.write('quotas:\n  - name: weather\n    routes: ["GET /api/{key}/**"]\n    key: { path: key }\n'
                '    limits: ["1000000000000/day"]\n')
    return folder, "/api/KEY1/conditions/City_3.json"


def compare(label, stubs, path, connections):
    servers = {}
    rows = {"A": [], "B": []}
    try:
        for name, binary in (("A", A), ("B", B)):  # in the try: B failing to start still stops A
            servers[name] = StubdProcess(binary, stubs, "--no-watch", *FLAGS[name], level=LOG_LEVEL)
        for r in range(1, ROUNDS + 1):
            for name in ("A", "B") if r % 2 else ("B", "A"):
                rows[name].append(wrk(servers[name].url + path, connections, servers[name].proc.pid))
                rps, p99, cost = rows[name][-1]
                print(f"  {label} round {r}/{ROUNDS} {name} {rps:>10,.0f} req/s  p99 {p99:.2f} ms  {cost:.2f} µs CPU/request", flush=True)
    finally:
        for server in servers.values():
            server.stop()
    med = {n: statistics.median(x[0] for x in rows[n]) for n in rows}
    p99 = {n: statistics.median(x[1] for x in rows[n]) for n in rows}
    cost = {n: statistics.median(x[2] for x in rows[n]) for n in rows}
    per_pair = statistics.median(b[0] / a[0] for a, b in zip(rows["A"], rows["B"]))
    return (f"| {label} | {med['A']:,.0f} | {med['B']:,.0f} | {med['B'] / med['A']:.3f} | {per_pair:.3f} | {p99['A']:.2f} / {p99['B']:.2f} ms "
            f"| {cost['A']:.2f} / {cost['B']:.2f} µs | {cost['B'] / cost['A']:.3f} |")


def main():
    if not A or not os.path.exists(A) or not os.path.exists(B):
        raise SystemExit("set STUBD_A (the baseline build) and STUBD_B (default .build/release/stubd) to release binaries")
    for tool in ("wrk",):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is not installed (apt-get install {tool})")
    print(f"A = {A} {' '.join(FLAGS['A'])}\nB = {B} {' '.join(FLAGS['B'])}\n{ROUNDS} interleaved pairs of {DURATION}, --log-level {LOG_LEVEL}, load before: {os.getloadavg()[0]:.2f}", flush=True)
    table = ["| shape | A req/s | B req/s | B/A (medians) | B/A (per pair, median) | p99 A / B | CPU per request A / B | B/A CPU |",
             "|---|---|---|---|---|---|---|---|"]
    stubs = os.path.join(REPO, "Benchmarks", "Stubs")
    if SHAPES not in ("all", "plain", "c128", "patterned", "quota"):
        raise SystemExit(f"SHAPES={SHAPES}: one of all, plain, c128, patterned, quota")

    def in_made_folder(label, make):
        folder, path = make()
        try:
            table.append(compare(label, folder, path, 32))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    if SHAPES in ("all", "plain"):
        table.append(compare("plain 1 KB, c32", stubs, PLAIN, 32))
    if SHAPES in ("all", "c128"):
        table.append(compare("plain 1 KB, c128", stubs, PLAIN, 128))
    if SHAPES in ("all", "patterned"):
        in_made_folder(f"1 of {PATTERNED:,} patterned, c32", patterned_folder)
    if SHAPES in ("all", "quota"):
        in_made_folder("keyed quota, c32", keyed_quota_folder)
    print("\n" + "\n".join(table))

if __name__ == "__main__":
    main()
