#!/usr/bin/env python3
"""Benchmarks/floors.py: where stubd's CPU per request goes, stage by stage, against the C twin,
measured on the binary as it ships (no patch, no build of its own).

    swift build -c release --product stubd && python3 Benchmarks/floors.py

Each round measures stubd (`serve --log-level warning`) and the C twin (Benchmarks/peers/acceptor_mhd.c)
on the 1 KB Benchmarks/Stubs/bench/payload.json as Benchmarks/cpu.py does: each process's own user and
system CPU over a `wrk -t2 -c32 -d4s` run, divided by the requests. Then one more run of stubd alone
under `perf record` (user space, 2,999 samples a second) says where its user CPU went: each sample's
own function is put in a stage by the module its symbol belongs to,

  - libmicrohttpd:  the C library's reading, parsing and queueing (what the twin runs too);
  - C library:      libc and the other shared C libraries (malloc, memcpy, locks);
  - Swift runtime:  retain/release, allocation, the standard library, Foundation;
  - transport:      the Stubd module (RequestRouter, the responders, the connection state);
  - journal:        StubdEngine's RequestJournal and JournalEntry;
  - answer:         the rest of StubdEngine (matching, hit counts, quotas, the outcome) and the tools
                    above it (StubdCore: the contract, when a spec is loaded);
  - other Swift:    HTTPTypes and the other packages,

and a stage's µs per request is its share of the samples times stubd's median user µs per request
(system time is the kernel's: accept, read, write, epoll). Inlining moves work across the lines (a
function inlined into its caller counts as the caller's), so the split is the optimised binary's,
not the source's. The handler's own cost, the bar issue 40 names, is stubd's user µs minus the twin's.

This replaces a STUBD_FLOOR switch that Benchmarks/peers/floors.patch added to the hot path for a
build of its own: the patch stopped applying as the transport changed; sampling needs none.

Environment: STUBD_BIN (.build/release/stubd), ROUNDS (5), CONNECTIONS (32, as cpu.py reads it),
LOG_LEVEL (warning). Needs perf (linux-perf) allowed to sample a process of the same user
(kernel.perf_event_paranoid ≤ 2). Loopback only; every process it starts is stopped before it exits.
"""
import os, re, statistics, subprocess, sys, tempfile
from collections import Counter
from stubd_process import StubdProcess
import cpu, run

STUBD = os.environ.get("STUBD_BIN", run.STUBD)
ROUNDS = int(os.environ.get("ROUNDS", "5"))
STAGES = ["libmicrohttpd", "C library", "Swift runtime", "transport", "journal", "answer", "other Swift"]


def stage(dso, symbol):
    """The stage a sampled function belongs to, from its shared object and its (mangled) name."""
    if "libmicrohttpd" in dso:
        return "libmicrohttpd"
    # A debug build links the Swift runtime and Foundation as shared libraries; a release one statically.
    if dso.startswith(("libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime")):
        return "Swift runtime"
    if dso.startswith("lib") and ".so" in dso:
        return "C library"
    # A Swift symbol names its module first: $s5Stubd… is the Stubd module's, $s11StubdEngine… StubdEngine's.
    module = re.match(r"\$s(\d+)", symbol)
    if module:
        length = int(module.group(1))
        name = symbol[module.end():module.end() + length]
        if name == "Stubd":
            return "transport"
        if name in ("StubdEngine", "StubdCore"):
            return "journal" if ("14RequestJournal" in symbol or "12JournalEntry" in symbol) else "answer"
        if name in ("Foundation", "FoundationEssentials", "FoundationInternationalization", "Dispatch", "Synchronization"):
            return "Swift runtime"
        return "other Swift"
    # $ss… (the standard library), swift_retain, swift_allocObject and the like, linked in statically.
    if symbol.startswith("$ss") or symbol.startswith("$sS") or symbol.startswith("swift_") or symbol.startswith("_swift"):
        return "Swift runtime"
    return "C library"


def profile(server):
    """Samples per stage over one wrk run against `server`, and the samples counted."""
    with tempfile.TemporaryDirectory() as folder:
        data = os.path.join(folder, "perf.data")
        perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock:u", "-F", "2999", "-p", str(server.proc.pid), "-o", data],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            subprocess.run(["wrk", "-t2", f"-c{cpu.CONNECTIONS}", "-d4s", server.url + run.PAYLOAD], capture_output=True, check=True)
        finally:
            perf.send_signal(2)
            _, errors = perf.communicate(timeout=60)
        if perf.returncode not in (0, -2) or not os.path.exists(data):
            raise SystemExit(f"perf record failed ({perf.returncode}): {errors.decode(errors='replace')}")
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--no-demangle", "-q",
                                 "--sort", "dso,sym", "-F", "sample,dso,sym"], capture_output=True, text=True, check=True).stdout
    counts = Counter()
    for line in report.splitlines():
        # "    1234  libmicrohttpd.so.12.60.0  [.] MHD_connection_handle_idle"
        match = re.match(r"\s*(\d+)\s+(\S+)\s+\[.\]\s+(\S+)", line)
        if match:
            counts[stage(match.group(2), match.group(3))] += int(match.group(1))
    return counts


def main():
    if not os.access(STUBD, os.X_OK):
        raise SystemExit(f"{STUBD}: no stubd there; swift build -c release --product stubd, or set STUBD_BIN")
    stubd = StubdProcess(STUBD, run.STUBS, "--no-watch", level=os.environ.get("LOG_LEVEL", "warning"))
    twin = run.CTwin(os.path.join(run.STUBS, run.PAYLOAD.lstrip("/")))
    targets = [("stubd", stubd.url, [stubd.proc.pid]), ("C twin", twin.url, [twin.proc.pid])]
    rows = {name: [] for name, _, _ in targets}
    samples = Counter()
    try:
        for r in range(1, ROUNDS + 1):
            for name, url, pids in targets:
                rows[name].append(cpu.measure(url, pids))
                rps, user, system = rows[name][-1]
                print(f"  round {r}/{ROUNDS} {name:6} {rps:>9,.0f} req/s  user {user:5.2f} µs  system {system:5.2f} µs", flush=True)
            samples += profile(stubd)
    finally:
        stubd.stop()
        twin.stop()
    med = {name: tuple(statistics.median(x[i] for x in rows[name]) for i in range(3)) for name in rows}
    total = sum(samples.values()) or 1
    print(f"\nmedians of {ROUNDS} rounds (wrk -t2 -c{cpu.CONNECTIONS} -d4s, 1 KB body); stubd's user CPU split by "
          f"{total:,} perf samples:\n")
    print("| | req/s | user µs | system µs | total µs |\n|---|---:|---:|---:|---:|")
    for name in rows:
        rps, user, system = med[name]
        print(f"| {name} | {rps:,.0f} | {user:.2f} | {system:.2f} | {user + system:.2f} |")
    user = med["stubd"][1]
    print(f"\nthe handler's own cost (stubd's user µs − the twin's): {user - med['C twin'][1]:.2f} µs per request\n")
    print("| stubd's user CPU | share | µs per request |\n|---|---:|---:|")
    for name in STAGES:
        print(f"| {name} | {samples[name] / total:.1%} | {samples[name] / total * user:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
