#!/usr/bin/env python3
"""Benchmarks/baseline.py: this build's request path against an earlier build's, in one run.

    STUBD_BIN=.build/release/stubd BASELINE_BIN=/path/to/old/stubd python3 Benchmarks/baseline.py

Issue 38's bar ("plain throughput and CPU per request unchanged against the commit before") asks
for the two builds side by side on the shapes users have, so each shape gets one server of each
build on the same folder and alternating rounds, and prints the server's own CPU per request
(user + system, /proc/PID/stat over one `wrk -t2 -c32` run, as cpu.py counts it) and req/s, with
the ratio this/baseline of the medians:

  - plain: the example Stubs/, the 1 KB bench/payload.json, `--log-level warning`;
  - default log: the same with the default info log (one line per request, to a file);
  - 10 and 10,000 patterned stubs shaped like the weather example, the last city requested;
  - a quota keyed by a path parameter (the API key), the scale benchmark's folder.

Then RSS across RELOADS reloads of a 2 MB folder under `--watch` for each build (scale.py's).
Environment: STUBD_BIN, BASELINE_BIN (both required), ROUNDS (5), DURATION (3s), RELOADS (300),
ONLY (some of plain,log,p10,p10000,quota,reloads). Loopback only; every process and folder is removed at exit.
"""
import os, re, shutil, statistics, subprocess, sys
import scale
from cpu import cpu

CURRENT = os.environ.get("STUBD_BIN", scale.STUBD)
BASELINE = os.environ.get("BASELINE_BIN", "")
ROUNDS = int(os.environ.get("ROUNDS", "5"))
DURATION = os.environ.get("DURATION", "3s")
RELOADS = int(os.environ.get("RELOADS", "300"))
STUBS = os.path.join(scale.REPO, "Stubs")
CITY = "/api/KEY1/conditions/q/CA/City_{}.json"


def measure(url):
    """(req/s, total server CPU µs per request) over one wrk run against a server started by the caller."""
    out = subprocess.run(["wrk", "-t2", "-c32", "-d" + DURATION, url], capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"wrk got non-2xx answers from {url}:\n{out}")
    n = int(re.search(r"(\d+) requests in", out).group(1))
    seconds = float(re.search(r"requests in ([\d.]+)s", out).group(1))
    return n / seconds, n


def shapes():
    keyed = scale.cities(10)
    keyed["stubd.yml"] = ('quotas:\n  - name: weather\n    routes: ["GET /api/{key}/**"]\n    key: { path: key }\n'
                          '    limits: ["1000000000000/day"]\n')
    return [
        ("plain", "plain", lambda: STUBS, "/bench/payload.json", "warning"),
        ("log", "default log", lambda: STUBS, "/bench/payload.json", "info"),
        ("p10", "10 patterned", lambda: scale.folder(scale.cities(10)), CITY.format(9), "warning"),
        ("p10000", "10,000 patterned", lambda: scale.folder(scale.cities(10_000)), CITY.format(9_999), "warning"),
        ("quota", "keyed quota", lambda: scale.folder(keyed), CITY.format(3), "warning"),
    ]


def compare(name, make_folder, path, level):
    root = make_folder()
    servers = {}
    try:
        for build, binary in (("this", CURRENT), ("baseline", BASELINE)):
            scale.STUBD = binary
            servers[build] = scale.Server(root, "--no-watch", level=level)
        rows = {build: [] for build in servers}
        for s in servers.values():
            scale.wrk(s.url + path, "1s")
        for _ in range(ROUNDS):
            for build, s in servers.items():
                u0, s0 = cpu([s.proc.pid])
                rps, n = measure(s.url + path)
                u1, s1 = cpu([s.proc.pid])
                rows[build].append((rps, (u1 - u0 + s1 - s0) / n * 1e6))
        med = {b: (statistics.median(r for r, _ in v), statistics.median(c for _, c in v)) for b, v in rows.items()}
        (tr, tc), (br, bc) = med["this"], med["baseline"]
        print(f"| {name} | {tc:.2f} | {bc:.2f} | {tc / bc:.2f}× | {tr:,.0f} | {br:,.0f} | {tr / br:.2f}× |", flush=True)
    finally:
        for s in servers.values():
            s.stop()


def main():
    if not BASELINE or not all(os.access(b, os.X_OK) for b in (CURRENT, BASELINE)):
        raise SystemExit("set STUBD_BIN and BASELINE_BIN to two release builds of stubd")
    only = [o for o in os.environ.get("ONLY", "").split(",") if o]
    print(f"this build: {CURRENT}\nbaseline:   {BASELINE}\n{os.cpu_count()} CPU(s), wrk -t2 -c32 -d{DURATION}, "
          f"medians of {ROUNDS} alternating rounds\n")
    print("| shape | this µs/req | baseline µs/req | CPU ratio | this req/s | baseline req/s | req/s ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    try:
        for shape in shapes():
            if not only or shape[0] in only:
                compare(*shape[1:])
        if not only or "reloads" in only:
            scale.RELOADS = RELOADS
            for build, binary in (("this", CURRENT), ("baseline", BASELINE)):
                print(f"\nRSS across reloads, {build}:")
                scale.STUBD = binary
                scale.reloads()
    finally:
        for d in scale.folders:
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
