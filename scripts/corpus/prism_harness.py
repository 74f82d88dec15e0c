#!/usr/bin/env python3
"""Runs Stoplight Prism's own test harness cases (test-harness/specs/**/*.txt) against stubd.

usage: prism_harness.py SPECS_DIR LOGDIR [--stubd .build/debug/stubd] [--mode strict|report] [--only SUBSTR]

Per case (sections ====test==== ====spec==== ====server==== ====command==== ====expect==== /
====expect-loose==== / ====expect-keysOnly====, split as Prism's helpers.ts does):
  1. the spec is written to LOGDIR/<case>/spec.yml (Prism writes a .yml too);
  2. `stubd openapi import spec.yml --stubs stubs`;
  3. `stubd serve --stubs stubs --spec spec.yml --port 0 --no-watch --validate requests=MODE` (strict by default:
     the mode contract.md names as Prism's: "422 application/problem+json listing every error instead of the
     stub, as Prism does");
  4. the case's curl command, with Prism's port 4010 replaced by stubd's, run through the shell;
  5. compared with the expectation the way Prism's harness (gavel) does it, simplified:
     status code always; each expected header by name (content-type by media type, its parameters ignored,
     other headers by value); body: `expect` -> equal (as JSON when both parse, else as text, trimmed),
     `expect-loose` -> same JSON key structure (recursive) when the expected body is JSON, else not compared,
     `expect-keysOnly` -> same top-level keys.
Cases whose ====server==== line uses a Prism option stubd has no counterpart for (-d/--dynamic, --errors,
proxy, --json-schema-faker-*, --cors) are run but classified PRISM-OPTION, not counted.
Writes LOGDIR/results.tsv: case, class(plain|PRISM-OPTION), verdict(PASS|FAIL-import|FAIL-serve|FAIL-status|
FAIL-header|FAIL-body|ERROR), detail.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

SECTION = re.compile(r"====(server|test|spec|command|expect|expect-loose|expect-keysOnly)====\r?\n", re.I)


def parse_case(text):
    parts = SECTION.split(text)
    out = {}
    for i in range(1, len(parts) - 1, 2):
        out[parts[i].lower()] = parts[i + 1]
    return out


def parse_http(text):
    """curl -i output (or an expectation) -> (status, {header: value}, body). The last response wins
    (a 100 Continue or a redirect prints more than one)."""
    text = text.replace("\r\n", "\n")
    blocks = []
    rest = text.lstrip()
    while rest.startswith("HTTP/"):
        head, sep, body = rest.partition("\n\n")
        blocks.append((head, body))
        if body.lstrip().startswith("HTTP/") and re.match(r"HTTP/\S+ 1\d\d|HTTP/\S+ 30[12378]", head):
            rest = body.lstrip()
            continue
        break
    if not blocks:
        return None, {}, text
    head, body = blocks[-1]
    lines = head.split("\n")
    m = re.match(r"HTTP/\S+\s+(\d{3})", lines[0])
    status = int(m.group(1)) if m else None
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    return status, headers, body


def json_or_none(s):
    try:
        return json.loads(s)
    except Exception:
        return None


def key_shape(v):
    if isinstance(v, dict):
        return {k: key_shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [key_shape(v[0])] if v else []
    return None


def shape_covers(expected, actual):
    """Every key the expected JSON has, the actual has too (recursively), as gavel's JSON example check does."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and shape_covers(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and (not expected or not actual or shape_covers(expected[0], actual[0]))
    return True


def classify_server(server):
    args = server.split()
    plain = {"mock", "-p", "4010", "${document}", "-m"}
    extra = [a for a in args if a not in plain]
    return ("plain", "") if not extra and args[:1] == ["mock"] else ("PRISM-OPTION", " ".join(extra) or args[0])


def run_case(path, name, logdir, stubd, mode):
    case = parse_case(open(path, encoding="utf-8").read())
    d = os.path.join(logdir, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    spec = os.path.join(d, "spec.yml")
    with open(spec, "w", encoding="utf-8") as f:
        f.write(case.get("spec", ""))
    cls, opt = classify_server(case.get("server", "").strip())
    stubs = os.path.join(d, "stubs")
    imp = subprocess.run([stubd, "openapi", "import", spec, "--stubs", stubs], capture_output=True, text=True)
    with open(os.path.join(d, "import.log"), "w") as f:
        f.write(imp.stdout + imp.stderr)
    if imp.returncode != 0:
        return cls, opt, "FAIL-import", (imp.stderr.strip().splitlines() or ["?"])[-1][:300]
    slog = os.path.join(d, "serve.log")
    with open(slog, "w") as f:
        proc = subprocess.Popen([stubd, "serve", "--stubs", stubs, "--spec", spec, "--port", "0", "--no-watch",
                                 "--validate", "requests=" + mode], stdout=f, stderr=subprocess.STDOUT)
    try:
        port = None
        deadline = time.time() + 20
        while time.time() < deadline and proc.poll() is None:
            m = re.search(r"listening on http://[0-9.]+:(\d+)", open(slog).read())
            if m:
                port = m.group(1)
                break
            time.sleep(0.05)
        if port is None:
            return cls, opt, "FAIL-serve", (open(slog).read().strip().splitlines() or ["?"])[-1][:300]
        command = case.get("command", "").strip()
        command = re.sub(r"(localhost|127\.0\.0\.1):4010", r"127.0.0.1:" + port, command)
        with open(os.path.join(d, "command.sh"), "w") as f:
            f.write(command + "\n")
        try:
            out = subprocess.run(command, shell=True, capture_output=True, timeout=20)
            got = out.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            return cls, opt, "ERROR", "curl timed out"
        with open(os.path.join(d, "got.txt"), "w") as f:
            f.write(got)
        kind = "expect" if "expect" in case else ("expect-loose" if "expect-loose" in case else "expect-keysonly")
        expected_text = case.get(kind, "").strip()
        e_status, e_headers, e_body = parse_http(expected_text)
        g_status, g_headers, g_body = parse_http(got.strip())
        if e_status != g_status:
            return cls, opt, "FAIL-status", "expected %s, got %s; got body: %s" % (e_status, g_status, g_body.strip()[:200])
        for k, v in e_headers.items():
            gv = g_headers.get(k)
            if gv is None:
                return cls, opt, "FAIL-header", "no %s header (expected %r)" % (k, v)
            if k == "content-type":
                if gv.split(";")[0].strip().lower() != v.split(";")[0].strip().lower():
                    return cls, opt, "FAIL-header", "content-type %r, expected %r" % (gv, v)
            elif k not in ("date", "content-length", "etag", "last-modified") and gv != v:
                return cls, opt, "FAIL-header", "%s: %r, expected %r" % (k, gv, v)
        eb, gb = e_body.strip(), g_body.strip()
        ej, gj = json_or_none(eb), json_or_none(gb)
        if kind == "expect":
            same = (ej == gj) if (ej is not None and gj is not None) else (eb == gb)
            if not same:
                return cls, opt, "FAIL-body", "expected %s | got %s" % (eb[:200], gb[:200])
        elif kind == "expect-loose":
            if ej is not None and not shape_covers(ej, gj):
                return cls, opt, "FAIL-body", "JSON keys differ: expected %s | got %s" % (eb[:200], gb[:200])
        else:
            if not (isinstance(ej, dict) and isinstance(gj, dict) and list(ej) == list(gj)):
                return cls, opt, "FAIL-body", "top-level keys differ: expected %s | got %s" % (eb[:200], gb[:200])
        return cls, opt, "PASS", ""
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("specs")
    ap.add_argument("logdir")
    ap.add_argument("--stubd", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/debug/stubd"))
    ap.add_argument("--mode", default="strict")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    os.makedirs(a.logdir, exist_ok=True)
    cases = []
    for root, _, files in os.walk(a.specs):
        for fn in files:
            if fn.endswith(".txt"):
                cases.append(os.path.relpath(os.path.join(root, fn), a.specs))
    cases.sort()
    with open(os.path.join(a.logdir, "results.tsv"), "w") as out:
        for rel in cases:
            if a.only and a.only not in rel:
                continue
            name = rel.replace("/", "__")[:-4]
            try:
                row = run_case(os.path.join(a.specs, rel), name, a.logdir, a.stubd, a.mode)
            except Exception as e:  # a runner fault, not stubd's: say so
                row = ("?", "", "ERROR", repr(e)[:300])
            line = "\t".join([rel, row[0], row[2], (row[1] + " " if row[1] else "") + row[3].replace("\n", " ").replace("\t", " ")])
            print(line, flush=True)
            out.write(line + "\n")
            out.flush()


if __name__ == "__main__":
    main()
