#!/usr/bin/env python3
"""Benchmarks/templates.py: a templated answer against the same answer canned, in one run.

    swift build -c release --product stubd && python3 Benchmarks/templates.py

Issue 17's bar: a templated 1 KB answer runs at >= 0.5x the throughput of the same canned answer.
Three templated shapes are measured, each against the canned route in back-to-back rounds
(wrk -t2 -c32, keep-alive): a few request values (path parameter, query, header); the same with
`now` in two formats; and an `#each` over the request's JSON body is left out on purpose (wrk's
GET has no body). The canned route is the benchmark payload served from a file; every templated
body renders to about the same size.

Environment: STUBD_BIN (default .build/release/stubd), ROUNDS (default 5), DURATION (default 3s).
"""
import os, re, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stubd_process import StubdProcess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STUBD_BIN", os.path.join(ROOT, ".build/release/stubd"))
ROUNDS = int(os.environ.get("ROUNDS", "5"))
DURATION = os.environ.get("DURATION", "3s")

# ~1 KB of JSON, canned and as templates that render to the same size.
FILLER = ", ".join(f'"field_{i:02d}": "value number {i:02d} of the payload"' for i in range(22))
CANNED = '{"zip": "94107", "q": "London", "key": "k-123", ' + FILLER + "}"
TEMPLATES = {
    "request values": '{"zip": "{{request.path.zip}}", "q": "{{request.query.q}}", "key": "{{request.headers.X-Api-Key}}", ' + FILLER + "}",
    "request values + now (2 formats)": '{"zip": "{{request.path.zip}}", "q": "{{request.query.q}}", "day": "{{now format=\'yyyy-MM-dd\'}}", "at": "{{now}}", ' + FILLER + "}",
}


def wrk(url, duration=DURATION, header=None):
    args = ["wrk", "-t2", "-c32", "-d" + duration]
    if header:
        args += ["-H", header]
    out = subprocess.run(args + [url], capture_output=True, text=True).stdout
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise SystemExit(f"wrk got non-2xx answers from {url}:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def main():
    if not shutil.which("wrk"):
        raise SystemExit("templates.py needs wrk (apt-get install -y wrk)")
    if not os.path.exists(BIN):
        raise SystemExit(f"{BIN} not found: swift build -c release --product stubd")
    stubs = tempfile.mkdtemp(prefix="stubd-templates-bench-")
    try:
        os.makedirs(os.path.join(stubs, "canned", "94107"))
        with open(os.path.join(stubs, "canned", "94107", "f.json"), "w") as f:
            f.write(CANNED)
        for i, text in enumerate(TEMPLATES.values()):
            os.makedirs(os.path.join(stubs, f"t{i}", "{zip}"))
            with open(os.path.join(stubs, f"t{i}", "{zip}", "f.tmpl.json"), "w") as f:
                f.write(text)
        server = StubdProcess(BIN, stubs, "--no-watch")
        try:
            canned = server.url + "/canned/94107/f.json?q=London"
            print(f"stubd templates benchmark: {os.cpu_count()} CPU(s), wrk -t2 -c32 -d{DURATION}, {ROUNDS} rounds; body {len(CANNED)} bytes")
            results = []
            for i, name in enumerate(TEMPLATES):
                url = server.url + f"/t{i}/94107/f.json?q=London"
                wrk(url, "1s", "X-Api-Key: k-123"), wrk(canned, "1s")
                pairs = []
                for _ in range(ROUNDS):
                    pairs.append((wrk(url, header="X-Api-Key: k-123"), wrk(canned)))
                ratios = [t / c for t, c in pairs]
                t_med = statistics.median(p[0] for p in pairs)
                c_med = statistics.median(p[1] for p in pairs)
                results.append((name, t_med, c_med, statistics.median(ratios)))
                print(f"  {name}: templated {t_med:,.0f} req/s, canned {c_med:,.0f} req/s; ratio {t_med / c_med:.2f} (medians), "
                      f"{statistics.median(ratios):.2f} (median of per-round ratios)")
        finally:
            server.stop()
        worst = min(r[3] for r in results)
        print(f"bar: templated >= 0.5x canned: {'met' if worst >= 0.5 else 'NOT met'} (worst per-round median {worst:.2f})")
    finally:
        shutil.rmtree(stubs, ignore_errors=True)


if __name__ == "__main__":
    main()
