#!/usr/bin/env python3
"""Benchmarks/cpu.py: the server's own CPU per request, stubd against nginx and the C twin.

    swift build -c release --product stubd && python3 Benchmarks/cpu.py

On this project's machine wrk and the server share two vCPUs, so a throughput ratio mixes what
the server spends with where the scheduler puts wrk. This prints what each server spent itself:
its user and system CPU time (/proc/PID/stat, all its threads; nginx's workers too) over one
`wrk -t2 -c32 -d4s` run on the 1 KB Benchmarks/Stubs/bench/payload.json, divided by the requests answered.
Rounds alternate the targets; the medians are printed, and stubd's against each peer's.

  - stubd: `stubd serve --log-level warning` (LOG_LEVEL=info for the default log line);
  - nginx on the same file;
  - the C twin (Benchmarks/peers/acceptor_mhd.c, poll, two daemons): stubd's transport answering
    one fixed buffer, with nothing of ours per request. Its user time is libmicrohttpd's; the
    difference in user time is what stubd's handler costs (matching, journal, hit counts, the log).

Environment: STUBD_BIN, ROUNDS (5), CONNECTIONS (32), LOG_LEVEL (warning). Clock-tick resolution
(10 ms over ~4 s of CPU) is well under the differences. Loopback only; every process it starts is
stopped before it exits.
"""
import os, re, statistics, subprocess, sys
from stubd_process import StubdProcess
from nginx_process import NginxProcess
import run

STUBD = os.environ.get("STUBD_BIN", run.STUBD)
ROUNDS = int(os.environ.get("ROUNDS", "5"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "32"))
TICK = os.sysconf("SC_CLK_TCK")


def cpu(pids):
    """(user, system) seconds the processes have used so far."""
    user = system = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        user += int(fields[11]) / TICK
        system += int(fields[12]) / TICK
    return user, system


def with_children(proc):
    out = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    return [proc.pid] + [int(p) for p in out]


def measure(url, pids):
    """(req/s, user µs per request, system µs per request) over one wrk run."""
    u0, s0 = cpu(pids)
    out = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", "-d4s", url + run.PAYLOAD], capture_output=True, text=True, check=True).stdout
    u1, s1 = cpu(pids)
    n = int(re.search(r"(\d+) requests in", out).group(1))
    return n / 4, (u1 - u0) / n * 1e6, (s1 - s0) / n * 1e6


def main():
    body = os.path.join(run.STUBS, run.PAYLOAD.lstrip("/"))
    stubd = StubdProcess(STUBD, run.STUBS, "--no-watch", level=os.environ.get("LOG_LEVEL", "warning"))
    nginx = NginxProcess(run.STUBS, run.PAYLOAD)
    twin = run.CTwin(body)
    targets = [("stubd", stubd.url, [stubd.proc.pid]), ("nginx", nginx.url, with_children(nginx.proc)),
               ("C twin", twin.url, [twin.proc.pid])]
    rows = {name: [] for name, _, _ in targets}
    try:
        for name, url, _ in targets:
            subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", "-d1s", url + run.PAYLOAD], capture_output=True)
        for r in range(1, ROUNDS + 1):
            for name, url, pids in targets:
                rows[name].append(measure(url, pids))
                rps, user, system = rows[name][-1]
                print(f"  round {r}/{ROUNDS} {name:6} {rps:>9,.0f} req/s  user {user:5.2f} µs  system {system:5.2f} µs  "
                      f"total {user + system:5.2f} µs per request", flush=True)
    finally:
        stubd.stop()
        nginx.stop()
        twin.stop()
    med = {name: tuple(statistics.median(x[i] for x in rows[name]) for i in range(3)) for name in rows}
    print(f"\nserver CPU per request, medians of {ROUNDS} rounds (wrk -t2 -c{CONNECTIONS} -d4s, 1 KB body):\n")
    print("| server | req/s | user µs | system µs | total µs |\n|---|---:|---:|---:|---:|")
    for name, (rps, user, system) in med.items():
        print(f"| {name} | {rps:,.0f} | {user:.2f} | {system:.2f} | {user + system:.2f} |")
    for peer in ("nginx", "C twin"):
        s, p = med["stubd"], med[peer]
        print(f"\nstubd / {peer}: total CPU per request {(s[1] + s[2]) / (p[1] + p[2]):.2f}×; "
              f"user {s[1] - p[1]:+.2f} µs, system {s[2] - p[2]:+.2f} µs per request")


if __name__ == "__main__":
    sys.exit(main())
