#!/usr/bin/env python3
"""Benchmarks/cpu.py: the server's own CPU per request, stubd against nginx and the C twin, log on and off.

    swift build -c release --product stubd && python3 Benchmarks/cpu.py

On this project's machine wrk and the server share two vCPUs, so a throughput ratio mixes what
the server spends with where the scheduler puts wrk. This prints what each server spent itself:
its user and system CPU time (/proc/PID/stat, all its threads; nginx's workers too) over one
`wrk -t2 -c32 -d4s` run on the 1 KB Benchmarks/Stubs/bench/payload.json, divided by the requests answered.
Rounds alternate the targets; the medians are printed, with the two fair pairs (issue 61):

  - with the log on, as users run them: stubd's default log line (`--log-level info`, into a file)
    against nginx with its access log on (`combined`, buffered: `buffer=64k flush=1s`, into a file);
  - quiet: stubd `--log-level warning` against nginx with `access_log off`;
  - the C twin (Benchmarks/peers/acceptor_mhd.c, poll, two daemons): stubd's transport answering
    one fixed buffer, with nothing of ours per request. Its user time is libmicrohttpd's; the
    difference in user time is what stubd's handler costs (matching, journal, hit counts, the log).

and what stubd's log line costs: (default log - quiet) / default log, of the total CPU per request.
Then the peers' throughput at PEER_CONNECTIONS (64) in the same run: `wrk -t2 -c64 -d4s` on stubd
and nginx, log on and quiet, alternating, the medians and the median of the per-round ratios.

Environment: STUBD_BIN, ROUNDS (5; 0 skips the CPU rounds), CONNECTIONS (32), PEER_CONNECTIONS (64), PEER_ROUNDS (ROUNDS;
0 skips them). Clock-tick resolution (10 ms over ~4 s of CPU) is well under the differences.
Loopback only; every process it starts is stopped, and the logs removed, before it exits.
"""
import os, re, statistics, subprocess, sys
from stubd_process import StubdProcess
from nginx_process import NginxProcess
import run

STUBD = os.environ.get("STUBD_BIN", run.STUBD)
ROUNDS = int(os.environ.get("ROUNDS", "5"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "32"))
PEER_CONNECTIONS = int(os.environ.get("PEER_CONNECTIONS", "64"))
PEER_ROUNDS = int(os.environ.get("PEER_ROUNDS", str(ROUNDS)))
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


def measure(url, pids, connections=CONNECTIONS):
    """(req/s, user µs per request, system µs per request) over one wrk run."""
    u0, s0 = cpu(pids)
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", "-d4s", url + run.PAYLOAD], capture_output=True, text=True, check=True).stdout
    u1, s1 = cpu(pids)
    n = int(re.search(r"(\d+) requests in", out).group(1))
    if n == 0:
        raise SystemExit(f"wrk got no answer from {url} in 4 s (-c{connections}): is the machine out of memory or CPU? "
                         f"(load {os.getloadavg()[0]:.0f}); wrk said:\n{out}")
    return n / 4, (u1 - u0) / n * 1e6, (s1 - s0) / n * 1e6


def rounds(targets, count, connections):
    """Each (name, url, pids) measured once per round, in turn: name -> [(req/s, user, system)]."""
    rows = {name: [] for name, _, _ in targets}
    for r in range(1, count + 1):
        for name, url, pids in targets:
            rows[name].append(measure(url, pids, connections))
            rps, user, system = rows[name][-1]
            print(f"  round {r}/{count} c{connections} {name:13} {rps:>9,.0f} req/s  user {user:5.2f} µs  "
                  f"system {system:5.2f} µs  total {user + system:5.2f} µs per request", flush=True)
    return rows


def main():
    body = os.path.join(run.STUBS, run.PAYLOAD.lstrip("/"))
    servers = []
    try:
        stubd = StubdProcess(STUBD, run.STUBS, "--no-watch", level="info"); servers.append(stubd)
        quiet = StubdProcess(STUBD, run.STUBS, "--no-watch", level="warning"); servers.append(quiet)
        nginx_log = NginxProcess(run.STUBS, run.PAYLOAD, access_log=True); servers.append(nginx_log)
        nginx = NginxProcess(run.STUBS, run.PAYLOAD); servers.append(nginx)
        twin = run.CTwin(body); servers.append(twin)
        targets = [("stubd log", stubd.url, [stubd.proc.pid]), ("nginx log", nginx_log.url, with_children(nginx_log.proc)),
                   ("stubd quiet", quiet.url, [quiet.proc.pid]), ("nginx quiet", nginx.url, with_children(nginx.proc)),
                   ("C twin", twin.url, [twin.proc.pid])]
        for name, url, _ in targets:
            subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", "-d1s", url + run.PAYLOAD], capture_output=True)
        rows = rounds(targets, ROUNDS, CONNECTIONS) if ROUNDS else None
        peers = rounds(targets[:4], PEER_ROUNDS, PEER_CONNECTIONS) if PEER_ROUNDS else None
        logged = [os.path.getsize(stubd.log.name), os.path.getsize(nginx_log.access_log)]
    finally:
        for server in servers:
            server.stop()
    if rows:
        cpu_table(rows, logged)
    if peers:
        print(f"\nthroughput at {PEER_CONNECTIONS} connections, medians of {PEER_ROUNDS} alternating rounds (wrk -t2 -c{PEER_CONNECTIONS} -d4s):\n")
        for name in peers:
            print(f"  {name:12} {statistics.median(r[0] for r in peers[name]):>9,.0f} req/s")
        for a, b in (("stubd log", "nginx log"), ("stubd quiet", "nginx quiet")):
            ratio = statistics.median(x[0] for x in peers[a]) / statistics.median(x[0] for x in peers[b])
            per_round = statistics.median(x[0] / y[0] for x, y in zip(peers[a], peers[b]))
            print(f"  {a} / {b}: {ratio:.2f} (medians); {per_round:.2f} (per-round)")


def cpu_table(rows, logged):
    """The medians of the CPU rounds, the fair pairs' ratios and each server's log line's share."""
    med = {name: tuple(statistics.median(x[i] for x in rows[name]) for i in range(3)) for name in rows}
    print(f"\nserver CPU per request, medians of {ROUNDS} rounds (wrk -t2 -c{CONNECTIONS} -d4s, 1 KB body; "
          f"logs written: stubd {logged[0] / 1e6:.0f} MB, nginx {logged[1] / 1e6:.0f} MB):\n")
    print("| server | req/s | user µs | system µs | total µs |\n|---|---:|---:|---:|---:|")
    for name, (rps, user, system) in med.items():
        print(f"| {name} | {rps:,.0f} | {user:.2f} | {system:.2f} | {user + system:.2f} |")
    print()
    for a, b in (("stubd log", "nginx log"), ("stubd quiet", "nginx quiet"), ("stubd log", "C twin"), ("stubd quiet", "C twin")):
        s, p = med[a], med[b]
        print(f"{a} / {b}: total CPU per request {(s[1] + s[2]) / (p[1] + p[2]):.2f}×; "
              f"user {s[1] - p[1]:+.2f} µs, system {s[2] - p[2]:+.2f} µs per request")
    for name in ("stubd", "nginx"):
        on, off = sum(med[name + " log"][1:]), sum(med[name + " quiet"][1:])
        print(f"{name}'s log line: {on - off:+.2f} µs a request, {(on - off) / on:.0%} of its CPU with the log on")


if __name__ == "__main__":
    sys.exit(main())
