#!/usr/bin/env python3
"""Benchmarks/recording.py: how recording keeps pace as the folder grows (issue 23 item 10).

    swift build -c release --product stubd && python3 Benchmarks/recording.py

CLIENTS keep-alive clients (default 8) each send PER_CLIENT distinct requests (default 200) through
`stubd record` to an upstream stubd, one after the other. Two shapes, each into a fresh folder:
distinct paths (each becomes a convention file) and distinct query values (each becomes a route in
stubd.recorded.yml). Prints the wall time of the whole run and of the first and the last 100
answers: a recorder whose cost per write grows with the folder shows it in the last 100.
Afterwards `stubd check` must pass on the folder and list every request's route.

Environment: STUBD_BIN (default .build/release/stubd), CLIENTS, PER_CLIENT.
"""
import http.client, os, re, shutil, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stubd_process import StubdProcess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STUBD_BIN", os.path.join(ROOT, ".build/release/stubd"))
CLIENTS = int(os.environ.get("CLIENTS", "8"))
PER_CLIENT = int(os.environ.get("PER_CLIENT", "200"))


def start_recorder(target, folder):
    log = tempfile.NamedTemporaryFile(prefix="stubd-record-bench-", suffix=".log", delete=False)
    env = dict(os.environ)
    env.pop("CI", None)
    proc = subprocess.Popen([BIN, "record", "--target", target, "--stubs", folder, "--port", "0"],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(log.name) as f:
            m = re.match(r"stubd recording on http://127\.0\.0\.1:(\d+)", f.readline())
        if m:
            return proc, int(m.group(1)), log.name
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    raise SystemExit("stubd record did not start: " + open(log.name).read())


def run(shape, upstream):
    folder = tempfile.mkdtemp(prefix="stubd-record-bench-")
    proc, port, log = start_recorder(upstream.url, folder)
    done, failures, lock = [], [], threading.Lock()

    def client(c):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for i in range(PER_CLIENT):
            path = f"/items/c{c}-{i}.json" if shape == "paths" else f"/search?q=c{c}-{i}"
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            with lock:
                done.append(time.time())
                if r.status != 200:
                    failures.append(f"{path}: {r.status}")

    start = time.time()
    threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = time.time() - start
    proc.terminate()
    proc.wait(timeout=10)
    text = open(log).read()
    os.unlink(log)
    done.sort()
    first = done[99] - start
    last = done[-1] - done[-101]
    failed_records = text.count("RECORDING FAILED")
    check = subprocess.run([BIN, "check", "--stubs", folder], capture_output=True, text=True)
    routes = len(re.findall(r"/(?:items|search)", check.stdout))
    shutil.rmtree(folder)
    n = CLIENTS * PER_CLIENT
    print(f"{shape:5}  {n} requests: {total:6.1f} s in all, first 100 in {first:5.2f} s, last 100 in {last:5.2f} s; "
          f"non-200 {len(failures)}, recording failures {failed_records}, stubd check {'ok' if check.returncode == 0 else 'FAILED'} "
          f"({routes} routes)")
    if failures or failed_records or check.returncode != 0 or routes != n:
        print(check.stdout[-2000:], check.stderr[-2000:], failures[:5])
        raise SystemExit(1)


def main():
    if not os.path.exists(BIN):
        raise SystemExit(f"{BIN} not found: swift build -c release --product stubd")
    served = tempfile.mkdtemp(prefix="stubd-record-upstream-")
    os.makedirs(os.path.join(served, "items"))
    with open(os.path.join(served, "items", "{id}.json"), "w") as f:
        f.write('{"item": "one of many", "price": 12.5, "tags": ["a", "b"]}')
    with open(os.path.join(served, "stubd.yml"), "w") as f:
        f.write('routes:\n  - request: { path: /search }\n    response: { json: { results: [1, 2, 3] } }\n')
    upstream = StubdProcess(BIN, served, "--no-watch")
    try:
        print(f"stubd record, {CLIENTS} clients x {PER_CLIENT} distinct requests ({BIN})")
        for shape in ["paths", "query"]:
            run(shape, upstream)
    finally:
        upstream.stop()
        shutil.rmtree(served)


if __name__ == "__main__":
    main()
