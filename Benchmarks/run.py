#!/usr/bin/env python3
"""Benchmarks/run.py: stubd against its peers, measured in the same run on the same machine.

    swift build -c release && python3 Benchmarks/run.py

What it prints (a Markdown summary, also saved under Benchmarks/results/ with the raw wrk output):
  - stubd and nginx on the same 1 KB file (Benchmarks/Stubs/bench/payload.json), interleaved rounds;
  - stubd against its own transport design in C with one fixed answer (Benchmarks/peers/
    acceptor_mhd.c, poll, the ceiling of what the Swift on top can reach), at 32 and 128 connections;
  - the quota'd route against the same route without a quota, interleaved;
  - sequential keep-alive requests on one connection (curl), stubd and nginx;
  - process start to first answered request;
  - then `stubd-bench` in-process: the core's cost per request, the fixture cycle, a cold load.
A ratio is given both as the ratio of the medians and as the median of the per-round ratios (each
pair measured back to back), since the VM's run-to-run noise is larger than most differences.

Environment: STUBD_BIN, DURATION (5s), ROUNDS (3), CONNECTIONS (32), QUOTA_ROUNDS (9),
QUOTA_DURATION (3s), TWIN_ROUNDS (3), KEEPALIVE_REQUESTS (200), STARTUP_RUNS (5), SAVE_RESULTS (1).
Loopback only; every process it starts is stopped before it exits.
"""
import datetime, os, platform, re, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request
from stubd_process import StubdProcess
from nginx_process import NginxProcess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
STUBS = os.path.join(REPO, "Benchmarks", "Stubs")  # the benchmarks' own folder, not the example
DURATION = os.environ.get("DURATION", "5s")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "32"))
QUOTA_ROUNDS = int(os.environ.get("QUOTA_ROUNDS", "9"))
QUOTA_DURATION = os.environ.get("QUOTA_DURATION", "3s")
TWIN_ROUNDS = int(os.environ.get("TWIN_ROUNDS", "3"))
KEEPALIVE_REQUESTS = int(os.environ.get("KEEPALIVE_REQUESTS", "200"))
STARTUP_RUNS = int(os.environ.get("STARTUP_RUNS", "5"))
PAYLOAD = "/bench/payload.json"
QUOTA_PATH = "/bench/quota/payload.json"
raw_output = []


def wrk(url, connections=CONNECTIONS, duration=DURATION, label=""):
    """One wrk run: (req/s, p50 ms, p99 ms)."""
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{duration}", "--latency", url],
                         capture_output=True, text=True, check=True).stdout
    raw_output.append(f"## {label} {url} -c{connections} -d{duration}\n{out}")
    def ms(name):
        value, unit = re.search(rf"^\s+{name}\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), ms("50%"), ms("99%")


def interleaved(targets, rounds, **options):
    """Measures each (name, url) once per round, in turn; returns name -> [(rps, p50, p99)]."""
    rows = {name: [] for name, _ in targets}
    for r in range(1, rounds + 1):
        for name, url in targets:
            rows[name].append(wrk(url, label=name, **options))
            rps, p50, p99 = rows[name][-1]
            print(f"  round {r}/{rounds} {name:6} {rps:>10,.0f} req/s  p50 {p50:.3f} ms  p99 {p99:.2f} ms", flush=True)
    return rows


def ratios(a, b):
    """(ratio of the medians, median of the per-round ratios) of req/s."""
    medians = statistics.median(x[0] for x in a) / statistics.median(x[0] for x in b)
    return medians, statistics.median(x[0] / y[0] for x, y in zip(a, b))


def row(label, rows):
    return (f"| {label} | {statistics.median(r[0] for r in rows):,.0f} | {statistics.median(r[1] for r in rows):.2f} ms "
            f"| {statistics.median(r[2] for r in rows):.2f} ms |")


class CTwin:
    """Benchmarks/peers/acceptor_mhd.c built with cc and started with poll + ITC, two daemons."""
    def __init__(self, body):
        self.dir = tempfile.mkdtemp(prefix="stubd-bench-twin-")
        binary = os.path.join(self.dir, "acceptor_mhd")
        subprocess.run(["cc", "-O2", "-pthread", "-o", binary, os.path.join(HERE, "peers/acceptor_mhd.c"), "-lmicrohttpd"], check=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen([binary, str(self.port), body, "2", "pi"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(self.url + PAYLOAD, timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("acceptor_mhd did not answer")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def keepalive(url):
    """Seconds for KEEPALIVE_REQUESTS sequential requests through one curl (one connection)."""
    started = time.time()
    out = subprocess.run(["curl", "-s", "--max-time", "60", "-w", "%{http_code} %{num_connects}\\n"]
                         + ["-o", "/dev/null", url] * KEEPALIVE_REQUESTS, capture_output=True, text=True).stdout.split("\n")
    elapsed = time.time() - started
    answered = sum(1 for line in out if line.startswith("200 "))
    connects = sum(int(line.split()[1]) for line in out if line.strip())
    return elapsed, answered, connects


def startup_ms():
    """Launch to the first 200 from /__stubd/health, per run (the clock starts before the launch)."""
    times = []
    for _ in range(STARTUP_RUNS):
        started = time.time()
        server = StubdProcess(STUBD, STUBS, "--no-watch")
        while True:
            try:
                with urllib.request.urlopen(server.url + "/__stubd/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.001)
        times.append((time.time() - started) * 1000)
        server.stop()
    return times


def main():
    if not os.access(STUBD, os.X_OK):
        raise SystemExit(f"{STUBD} is not built: swift build -c release")
    for tool in ("wrk", "nginx", "curl", "cc"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: apt-get install -y wrk nginx-light curl gcc")
    body = os.path.join(STUBS, PAYLOAD.lstrip("/"))
    print(f"stubd benchmark: {os.cpu_count()} CPU(s), wrk -t2 -c{CONNECTIONS} -d{DURATION} --latency, {ROUNDS} round(s)", flush=True)
    stubd = StubdProcess(STUBD, STUBS, "--no-watch")
    nginx = NginxProcess(STUBS, PAYLOAD)
    twin = CTwin(body)
    try:
        for name, server in (("stubd", stubd), ("nginx", nginx), ("C twin", twin)):
            wrk(server.url + PAYLOAD, duration="1s", label="warm-up " + name)
        print("stubd vs nginx, interleaved")
        peers = interleaved([("stubd", stubd.url + PAYLOAD), ("nginx", nginx.url + PAYLOAD)], ROUNDS)
        twins = {}
        for c in (32, 128):
            print(f"stubd vs its transport in C (poll), {c} connections, interleaved")
            twins[c] = interleaved([("stubd", stubd.url + PAYLOAD), ("twin", twin.url + PAYLOAD)], TWIN_ROUNDS, connections=c)
        print("quota'd vs plain route, interleaved")
        wrk(stubd.url + QUOTA_PATH, duration="1s", label="warm-up quota")
        quota = interleaved([("quota", stubd.url + QUOTA_PATH), ("plain", stubd.url + PAYLOAD)], QUOTA_ROUNDS, duration=QUOTA_DURATION)
        sequential = {name: keepalive(server.url + PAYLOAD) for name, server in (("stubd", stubd), ("nginx", nginx))}
    finally:
        stubd.stop()
        nginx.stop()
        twin.stop()
    startups = startup_ms()

    summary = [
        f"## stubd vs its peers ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ})", "",
        f"{os.cpu_count()} CPU(s), {platform.system()} {platform.release()}, wrk -t2 -c{CONNECTIONS} -d{DURATION} --latency, "
        f"payload {os.path.getsize(body)} bytes", "",
        "| target | req/s (median) | p50 | p99 |", "|---|---:|---:|---:|",
        row(f"stubd GET {PAYLOAD}", peers["stubd"]), row("nginx, same file", peers["nginx"]),
        row(f"stubd GET {QUOTA_PATH} (quota)", quota["quota"]), row(f"stubd GET {PAYLOAD} (in the quota pair)", quota["plain"]),
        "", "ratio stubd / nginx: %.2f (medians); %.2f (median of the per-round ratios)" % ratios(peers["stubd"], peers["nginx"])]
    for c, rows in twins.items():
        summary.append(f"ratio stubd / C twin at {c} connections: %.2f (medians); %.2f (per-round)" % ratios(rows["stubd"], rows["twin"]))
    summary += ["quota'd / plain route: %.2f (medians); %.2f (per-round; %s runs)" % (*ratios(quota["quota"], quota["plain"]), QUOTA_DURATION)]
    for name, (elapsed, answered, connects) in sequential.items():
        summary.append(f"{KEEPALIVE_REQUESTS} sequential keep-alive requests, {name}: {elapsed:.3f} s "
                       f"({answered} answered 200, {connects} connection(s))")
    summary.append(f"start to first answer: median {statistics.median(startups):.1f} ms ({len(startups)} runs)")
    print("\n" + "\n".join(summary), flush=True)

    bench = os.path.join(os.path.dirname(STUBD), "stubd-bench")
    if os.access(bench, os.X_OK):
        print("\n## in-process (stubd-bench)\n", flush=True)
        inprocess = subprocess.run([bench, STUBS], cwd=REPO, capture_output=True, text=True).stdout
        print(inprocess)
        summary += ["", "## in-process (stubd-bench)", "", inprocess]
    else:
        print(f"\nin-process figures: {bench} not built (swift build -c release --product stubd-bench)")
    if os.environ.get("SAVE_RESULTS", "1") == "1":
        folder = os.path.join(HERE, "results", time.strftime("%Y%m%d-%H%M%S"))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "summary.md"), "w") as f:
            f.write("\n".join(summary) + "\n")
        with open(os.path.join(folder, "wrk.txt"), "w") as f:
            f.write("\n".join(raw_output))
        print(f"raw wrk output and summary: {folder}")


if __name__ == "__main__":
    main()
