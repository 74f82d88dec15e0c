#!/usr/bin/env python3
"""Benchmarks/spec_load.py: loading a large spec, two ways.

    swift build -c release --product stubd && python3 Benchmarks/spec_load.py
    BASELINE_BIN=/path/to/old/stubd python3 Benchmarks/spec_load.py twilio

`twilio` is issue 39's bar, "loading twilio_api_v2010 (import + check + serve start) no slower than
today": the checked-in Twilio spec (Tests/StubdServerTests/Fixtures/Corpus/twilio-api-v2010, 1.9 MB,
676 routes, form-encoded bodies), in each round and for each binary (the order alternating from
round to round): `stubd openapi import` into an empty folder, `stubd check --spec` of it, and
`stubd serve --spec` of it from the start of the process until it answers a request. It prints each
stage's time, the sum's median per binary, and STUBD_BIN's against BASELINE_BIN's as the ratio of
the medians and the median of the per-round ratios; serve's peak memory (VmHWM); and the CPU
seconds the three stubd processes used, whose ratio is the bar (within 3%, the noise of this
figure between two runs of one binary): on a shared 2-core machine wall time moves with the
neighbours, CPU time far less. Environment:
STUBD_BIN (.build/release/stubd), BASELINE_BIN (required), RUNS (5), SPEC (another spec).

With no argument it measures issue 26's load bar, "a spec of 1,000 operations and ~5 MB with deep
and circular $refs loads and checks a 1,000-stub folder in < 2 s (release); memory < 200 MB":

It writes, in a temporary folder:
  - openapi.yaml: 1,000 GET operations `/things{i}/{id}` over 3 files (the root, components in
    schemas.yaml, shared parameters in parameters.yaml), each answering 200 with a schema that
    reaches 8 levels deep through `$ref`s (`Level0` → … → `Level7`) and a circular `Node` (a tree
    whose `children` are `Node`s), 404 and 429 with a required `Retry-After`; padded with
    descriptions to about 5 MB, as large real specs are;
  - a Stubs folder of 1,000 convention files `things{i}/{id}.json`, each an answer that keeps to its
    schema, so the check must walk every one to the end.
Then it runs `stubd check --spec` RUNS times and prints wall time and peak memory (the child's
ru_maxrss) per run and their medians against the bars.

Environment: STUBD_BIN (.build/release/stubd), RUNS (5), OPERATIONS (1000).
"""
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time, urllib.error, urllib.request
from stubd_process import StubdProcess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBD = os.environ.get("STUBD_BIN", os.path.join(REPO, ".build/release/stubd"))
RUNS = int(os.environ.get("RUNS", "5"))
OPERATIONS = int(os.environ.get("OPERATIONS", "1000"))
DEPTH = 8
PADDING = "A long description, as real specs carry for each operation and field, written out. " * 29


def write(folder):
    spec_lines = ["openapi: 3.0.3", "info: {title: spec load benchmark, version: '1'}", "paths:"]
    for i in range(OPERATIONS):
        spec_lines += [
            f"  /things{i}/{{id}}:",
            "    get:",
            f"      operationId: getThing{i}",
            f"      description: {json.dumps(PADDING)}",
            "      parameters: [{$ref: 'parameters.yaml#/Id'}, {$ref: 'parameters.yaml#/Units'}]",
            "      responses:",
            "        '200':",
            f"          description: {json.dumps(PADDING)}",
            "          content:",
            "            application/json:",
            f"              schema: {{$ref: 'schemas.yaml#/Thing{i % 50}'}}",
            "        '404': {description: not found}",
            "        '429':",
            "          description: too many requests",
            "          headers: {Retry-After: {required: true, schema: {type: integer}}}",
        ]
    schemas = {}
    for level in range(DEPTH):
        nxt = {"$ref": f"#/Level{level + 1}"} if level + 1 < DEPTH else {"$ref": "#/Node"}
        schemas[f"Level{level}"] = {"type": "object", "required": ["name", "next"], "description": PADDING[:400],
                                    "properties": {"name": {"type": "string", "minLength": 1}, "count": {"type": "integer", "minimum": 0},
                                                   "when": {"type": "string", "format": "date-time"}, "next": nxt}}
    schemas["Node"] = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"},
                       "children": {"type": "array", "items": {"$ref": "#/Node"}}}}
    for t in range(50):
        schemas[f"Thing{t}"] = {"type": "object", "additionalProperties": False, "required": ["id", "tree"],
                                "properties": {"id": {"type": "integer"}, "kind": {"type": "string", "enum": ["a", "b", "c"]},
                                               "tree": {"$ref": "#/Level0"}, f"extra{t}": {"type": "number"}}}
    with open(os.path.join(folder, "openapi.yaml"), "w") as f:
        f.write("\n".join(spec_lines) + "\n")
    with open(os.path.join(folder, "schemas.yaml"), "w") as f:
        json.dump(schemas, f)  # JSON is YAML
    with open(os.path.join(folder, "parameters.yaml"), "w") as f:
        json.dump({"Id": {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                   "Units": {"name": "units", "in": "query", "schema": {"type": "string", "enum": ["metric", "imperial"]}}}, f)
    node = {"id": "6f1c7a52-2b0c-4d3e-9a55-0d3c5f1e2a11", "children": [{"id": "0b6e7a0c-2f5d-4f7e-8e61-1c2d3e4f5a6b", "children": []}]}
    tree = node
    for level in reversed(range(DEPTH)):
        tree = {"name": f"level {level}", "count": level, "when": "2024-05-01T12:00:00Z", "next": tree}
    stubs = os.path.join(folder, "Stubs")
    for i in range(OPERATIONS):
        os.makedirs(os.path.join(stubs, f"things{i}"), exist_ok=True)
        with open(os.path.join(stubs, f"things{i}", "{id}.json"), "w") as f:
            json.dump({"id": i, "kind": "a", "tree": tree, f"extra{i % 50}": 1.5}, f)
    size = sum(os.path.getsize(os.path.join(folder, n)) for n in ("openapi.yaml", "schemas.yaml", "parameters.yaml"))
    return stubs, size


TWILIO = os.path.join(REPO, "Tests/StubdServerTests/Fixtures/Corpus/twilio-api-v2010/twilio_api_v2010.json")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid):
    """User + system CPU seconds a running process has used (/proc/PID/stat, fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load(binary, spec, folder):
    """(import s, check s, serve-until-it-answers s, serve's peak MB, import + check + serve CPU s)
    of one binary on one spec. The CPU seconds are what the stubd processes themselves used: on a
    shared machine they move far less than wall time does."""
    stubs = os.path.join(folder, "Stubs")
    times = []
    cpu = 0.0
    for args in (["openapi", "import", spec, "--stubs", stubs], ["check", "--stubs", stubs, "--spec", spec]):
        started, cpu_before = time.monotonic(), children_cpu()
        r = subprocess.run([binary, *args], capture_output=True, text=True)
        times.append(time.monotonic() - started)
        cpu += children_cpu() - cpu_before
        if r.returncode != 0:
            raise SystemExit(f"{binary} {args[0]} failed:\n{r.stderr[-3000:]}")
    started = time.monotonic()
    server = StubdProcess(binary, stubs, "--spec", spec, "--no-watch")
    try:
        # Any answer will do (the folder has no route at /): the server is up and matching.
        try:
            urllib.request.urlopen(server.url + "/", timeout=60).read()
        except urllib.error.HTTPError:
            pass
        times.append(time.monotonic() - started)
        cpu += process_cpu(server.proc.pid)
        with open(f"/proc/{server.proc.pid}/status") as f:
            peak = int(next(l for l in f if l.startswith("VmHWM")).split()[1]) / 1024
    finally:
        server.stop()
    return times + [peak, cpu]


def twilio():
    baseline = os.environ.get("BASELINE_BIN")
    spec = os.environ.get("SPEC", TWILIO)
    if not baseline or not os.path.exists(baseline):
        raise SystemExit("BASELINE_BIN must name the baseline's stubd (a release build of the commit to compare against)")
    if not os.path.exists(STUBD):
        raise SystemExit(f"no stubd at {STUBD}: swift build -c release --product stubd (or set STUBD_BIN)")
    binaries = {"current": STUBD, "baseline": baseline}
    print(f"spec: {os.path.relpath(spec, REPO)} ({os.path.getsize(spec) / 1e6:.1f} MB); {RUNS} rounds of "
          f"import + check --spec + serve --spec until it answers\n  current  = {STUBD}\n  baseline = {baseline}", flush=True)
    results = {name: [] for name in binaries}
    for run in range(1, RUNS + 1):
        order = list(binaries) if run % 2 else list(reversed(binaries))
        for name in order:
            folder = tempfile.mkdtemp(prefix="stubd-spec-load-")
            try:
                r = load(binaries[name], spec, folder)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            results[name].append(r)
            print(f"  round {run} {name:8}: import {r[0]:.2f} s, check {r[1]:.2f} s, serve {r[2]:.2f} s = {sum(r[:3]):.2f} s; "
                  f"serve peak {r[3]:.0f} MB; CPU {r[4]:.2f} s", flush=True)
    for name in binaries:
        rs = results[name]
        stages = [statistics.median(r[i] for r in rs) for i in range(3)]
        print(f"{name:8} median: import {stages[0]:.2f} s, check {stages[1]:.2f} s, serve {stages[2]:.2f} s; "
              f"total {statistics.median(sum(r[:3]) for r in rs):.2f} s; serve peak {statistics.median(r[3] for r in rs):.0f} MB; "
              f"CPU {statistics.median(r[4] for r in rs):.2f} s")
    totals = {name: [sum(r[:3]) for r in results[name]] for name in binaries}
    ratio = statistics.median(totals["current"]) / statistics.median(totals["baseline"])
    per_round = statistics.median(c / b for c, b in zip(totals["current"], totals["baseline"]))
    cpu_ratio = statistics.median(r[4] for r in results["current"]) / statistics.median(r[4] for r in results["baseline"])
    print(f"current / baseline: wall {ratio:.2f} (ratio of the medians), {per_round:.2f} (median of the per-round ratios); "
          f"CPU {cpu_ratio:.2f} (ratio of the medians); "
          f"bar, no slower (CPU): {'met' if cpu_ratio <= 1.03 else f'NOT met ({(cpu_ratio - 1) * 100:.0f}% more CPU)'}")


def main():
    if sys.argv[1:] == ["twilio"]:
        return twilio()
    if sys.argv[1:]:
        raise SystemExit("usage: spec_load.py [twilio]")
    if not os.path.exists(STUBD):
        raise SystemExit(f"no stubd at {STUBD}: swift build -c release --product stubd (or set STUBD_BIN)")
    folder = tempfile.mkdtemp(prefix="stubd-spec-load-")
    try:
        stubs, size = write(folder)
        print(f"spec: {OPERATIONS} operations, {size / 1e6:.1f} MB over 3 files, {DEPTH}-deep $refs and a circular Node; "
              f"{OPERATIONS} stubs; {RUNS} runs of `stubd check --spec`", flush=True)
        times, peaks = [], []
        for run in range(1, RUNS + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            started = time.monotonic()
            r = subprocess.run([STUBD, "check", "--stubs", stubs, "--spec", os.path.join(folder, "openapi.yaml")],
                               capture_output=True, text=True)
            elapsed = time.monotonic() - started
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KB; the largest child so far
            if r.returncode != 0:
                raise SystemExit(f"stubd check failed:\n{r.stderr[-3000:]}")
            if f"ok: {OPERATIONS} routes" not in r.stdout:
                raise SystemExit(f"unexpected output:\n{r.stdout[-2000:]}")
            times.append(elapsed)
            peaks.append(max(peak, before) / 1024)
            print(f"  run {run}: {elapsed:.2f} s, peak {peaks[-1]:.0f} MB (largest child so far)", flush=True)
        t, m = statistics.median(times), max(peaks)
        print(f"median {t:.2f} s (bar < 2 s: {'met' if t < 2 else 'NOT met'}), peak {m:.0f} MB (bar < 200 MB: {'met' if m < 200 else 'NOT met'})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
