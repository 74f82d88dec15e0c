#!/usr/bin/env python3
"""Benchmarks/keepalive.py: issue 23's keep-alive bars, against a real `stubd serve` (release).

    swift build -c release --product stubd && python3 Benchmarks/keepalive.py

  - Throughput at 256, 257, 512 and 1,000 keep-alive connections against 128, in each of RUNS runs
    (wrk -t2 -d3s on the 1 KB Benchmarks/Stubs/bench/payload.json): every ratio must be >= 0.7. Until the
    workers used poll, libmicrohttpd's epoll mode stalled from about 256 connections (~1k req/s).
  - Tail latency at 32 connections (wrk --latency -d4s), stubd and nginx on the same file in
    alternating rounds: stubd's p99 (median of ROUNDS) must be at most nginx's.
  - With PIN=1, the tail rounds run with each server pinned to CPU 0 (all its threads) and wrk to
    CPU 1 (`taskset`), so the load generator does not take the server's CPU: what is left is the
    server's own waiting (on 2026-11-26 the two tied this way, and differed by a scheduler slice
    unpinned).
Environment: STUBD_BIN, RUNS (3), ROUNDS (3), PIN (0). Loopback only; every process it starts is stopped.
"""
import os, re, resource, statistics, subprocess, sys
from stubd_process import StubdProcess
from nginx_process import NginxProcess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
RUNS = int(os.environ.get("RUNS", "3"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
PATH = "/bench/payload.json"
failed = []


PIN = os.environ.get("PIN") == "1"


def wrk(url, connections, duration, pinned=False):
    out = subprocess.run((["taskset", "-c", "1"] if pinned else []) + ["wrk", "-t2", f"-c{connections}", f"-d{duration}", "--latency", url + PATH],
                         capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    def ms(label):
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return rps, ms("50%"), ms("99%")


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    stubd = StubdProcess(STUBD, os.path.join(REPO, "Benchmarks", "Stubs"), "--no-watch", "--max-connections", "4000")
    nginx = NginxProcess(os.path.join(REPO, "Benchmarks", "Stubs"), PATH)
    try:
        print(f"keep-alive throughput, wrk -t2 -d3s, {RUNS} runs; ratio to 128 connections (bar: >= 0.7 in every run)")
        for run in range(1, RUNS + 1):
            base, _, _ = wrk(stubd.url, 128, "3s")
            cells = [f"c128 {base:,.0f}"]
            for c in (256, 257, 512, 1000):
                rps, _, _ = wrk(stubd.url, c, "3s")
                ratio = rps / base
                cells.append(f"c{c} {rps:,.0f} ({ratio:.2f}x)")
                if ratio < 0.7:
                    failed.append(f"run {run}: {c} connections at {ratio:.2f}x of 128")
            print(f"  run {run}: " + ", ".join(cells), flush=True)

        if PIN:
            for pid in [stubd.proc.pid, nginx.proc.pid] + [int(p) for p in subprocess.run(
                    ["pgrep", "-P", str(nginx.proc.pid)], capture_output=True, text=True).stdout.split()]:
                subprocess.run(["taskset", "-a", "-p", "-c", "0", str(pid)], capture_output=True, check=True)
        print(f"tail latency, wrk -t2 -c32 -d4s --latency, {ROUNDS} alternating rounds (bar: stubd p99 <= nginx p99)"
              + (": servers on CPU 0, wrk on CPU 1" if PIN else ""))
        figures = {"stubd": [], "nginx": []}
        for _ in range(ROUNDS):
            for name, server in (("stubd", stubd), ("nginx", nginx)):
                figures[name].append(wrk(server.url, 32, "4s", pinned=PIN))
        for name, rows in figures.items():
            print(f"  {name}: req/s {statistics.median(r[0] for r in rows):,.0f}, p50 {statistics.median(r[1] for r in rows):.3f} ms, "
                  f"p99 {statistics.median(r[2] for r in rows):.2f} ms  (p99 per round: {', '.join(f'{r[2]:.2f}' for r in rows)})")
        stubd_p99 = statistics.median(r[2] for r in figures["stubd"])
        nginx_p99 = statistics.median(r[2] for r in figures["nginx"])
        if stubd_p99 > nginx_p99:
            failed.append(f"p99 {stubd_p99:.2f} ms against nginx's {nginx_p99:.2f} ms")
    finally:
        stubd.stop()
        nginx.stop()
    print("FAIL: " + "; ".join(failed) if failed else "PASS: every bar met")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
