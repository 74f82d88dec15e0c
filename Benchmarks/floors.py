#!/usr/bin/env python3
"""Benchmarks/floors.py: where stubd's CPU per request goes, stage by stage, against the C twin.

    git apply Benchmarks/peers/floors.patch && swift build -c release --product stubd \\
        && cp .build/release/stubd /tmp/stubd-floors && git checkout Sources
    STUBD_FLOORS_BIN=/tmp/stubd-floors python3 Benchmarks/floors.py

The patch adds one environment switch, STUBD_FLOOR, to a build made for this measurement only
(main never carries it). One binary, four servers on the 1 KB Benchmarks/Stubs/bench/payload.json:

  - glue:    the transport alone: the worker answers the route's prepared answer before reading
             anything of the request (the C twin's work, in Swift);
  - read:    the request read into IncomingRequest (method, path, headers, query, session, path
             checks, the catalog in force), then the same answer;
  - journal: everything stubd does but the journal (matching, hit counts, quotas, the outcome);
  - full:    STUBD_FLOOR unset: what `stubd serve` does.

and the C twin (Benchmarks/peers/acceptor_mhd.c). Each is measured as Benchmarks/cpu.py does (its
own user and system CPU over a `wrk -t2 -c32 -d4s` run, divided by the requests), in alternating
rounds; printed: medians, and req/s against the twin's. Issue 25's bar is the full server's req/s
at 0.95x the twin's; the stages say what each part of the request path costs toward it.

Environment: STUBD_FLOORS_BIN (required), ROUNDS (5), CONNECTIONS (32, as cpu.py reads it).
Loopback only; every process it starts is stopped before it exits.
"""
import os, statistics, sys
from stubd_process import StubdProcess
import cpu, run

STAGES = [("glue", "glue"), ("read", "read"), ("all but the journal", "journal"), ("full", None)]


def start(binary, stage):
    saved = os.environ.get("STUBD_FLOOR")
    if stage:
        os.environ["STUBD_FLOOR"] = stage
    else:
        os.environ.pop("STUBD_FLOOR", None)
    try:
        return StubdProcess(binary, run.STUBS, "--no-watch")
    finally:
        if saved is None:
            os.environ.pop("STUBD_FLOOR", None)
        else:
            os.environ["STUBD_FLOOR"] = saved


def main():
    binary = os.environ.get("STUBD_FLOORS_BIN")
    if not binary:
        raise SystemExit("STUBD_FLOORS_BIN: a stubd built with Benchmarks/peers/floors.patch (see the top of this file)")
    rounds = int(os.environ.get("ROUNDS", "5"))
    servers = [(name, start(binary, stage)) for name, stage in STAGES]
    twin = run.CTwin(os.path.join(run.STUBS, run.PAYLOAD.lstrip("/")))
    targets = [(name, server.url, [server.proc.pid]) for name, server in servers] + [("C twin", twin.url, [twin.proc.pid])]
    rows = {name: [] for name, _, _ in targets}
    try:
        for r in range(1, rounds + 1):
            for name, url, pids in targets:
                rows[name].append(cpu.measure(url, pids))
                rps, user, system = rows[name][-1]
                print(f"  round {r}/{rounds} {name:20} {rps:>9,.0f} req/s  user {user:5.2f} µs  system {system:5.2f} µs", flush=True)
    finally:
        for _, server in servers:
            server.stop()
        twin.stop()
    twin_rps = statistics.median(x[0] for x in rows["C twin"])
    print(f"\nmedians of {rounds} rounds (wrk -t2 -c{cpu.CONNECTIONS} -d4s, 1 KB body):\n")
    print("| stage | req/s | vs the twin | user µs | system µs | total µs |\n|---|---:|---:|---:|---:|---:|")
    for name in rows:
        rps, user, system = (statistics.median(x[i] for x in rows[name]) for i in range(3))
        print(f"| {name} | {rps:,.0f} | {rps / twin_rps:.2f}× | {user:.2f} | {system:.2f} | {user + system:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
