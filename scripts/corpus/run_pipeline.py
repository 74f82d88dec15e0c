#!/usr/bin/env python3
"""Per spec: stubd openapi import -> stubd check -> stubd serve --spec -> validate_corpus.py.

usage: run_pipeline.py LOGDIR SPEC [SPEC ...] [--stubd .build/debug/stubd] [--timeout SECONDS]

Writes LOGDIR/<name>/{import,check,serve,validate}.log and a line per spec to LOGDIR/summary.tsv:
name  import_rc  check_rc  serve_ok  validate_rc  answers  failed  verdict
verdict: GREEN | REFUSED-NO-OPERATION | FAIL-import | FAIL-check | FAIL-serve | FAIL-validate | TIMEOUT-validate
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/venv/bin/python")
VALIDATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/StubdServerTests/Fixtures/Corpus/validate_corpus.py")


def run(cmd, log, timeout):
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
            return p.returncode
        except subprocess.TimeoutExpired:
            f.write("\nTIMEOUT after %ds\n" % timeout)
            return "timeout"


def one(spec, name, logdir, stubd, timeout, validator=VALIDATOR):
    d = os.path.join(logdir, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    stubs = os.path.join(d, "stubs")
    row = {"name": name, "import": "-", "check": "-", "serve": "-", "validate": "-", "answers": "-", "failed": "-"}
    rc = run([stubd, "openapi", "import", spec, "--stubs", stubs], os.path.join(d, "import.log"), timeout)
    row["import"] = rc
    if rc != 0:
        text = open(os.path.join(d, "import.log")).read()
        row["verdict"] = "REFUSED-NO-OPERATION" if re.search(r"declares? no operation", text) else "FAIL-import"
        return row
    rc = run([stubd, "check", "--stubs", stubs, "--spec", spec], os.path.join(d, "check.log"), timeout)
    row["check"] = rc
    if rc != 0:
        row["verdict"] = "FAIL-check"
        return row
    serve_log = os.path.join(d, "serve.log")
    with open(serve_log, "w") as f:
        proc = subprocess.Popen([stubd, "serve", "--stubs", stubs, "--spec", spec, "--port", "0", "--no-watch"],
                                stdout=f, stderr=subprocess.STDOUT)
    try:
        url = None
        deadline = time.time() + 300
        while time.time() < deadline and proc.poll() is None:
            m = re.search(r"listening on (http://[0-9.:]+)", open(serve_log).read())
            if m:
                url = m.group(1)
                break
            time.sleep(0.2)
        if url is None:
            row["serve"] = "no"
            row["verdict"] = "FAIL-serve"
            return row
        row["serve"] = "yes"
        vlog = os.path.join(d, "validate.log")
        rc = run([PY, validator, spec, stubs, url], vlog, timeout)
        row["validate"] = rc
        last = [l for l in open(vlog).read().splitlines() if re.match(r"\d+ answers, \d+ failed", l)]
        if last:
            a, fl = re.match(r"(\d+) answers, (\d+) failed", last[-1]).groups()
            row["answers"], row["failed"] = a, fl
        row["verdict"] = "GREEN" if rc == 0 else ("TIMEOUT-validate" if rc == "timeout" else "FAIL-validate")
        return row
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("logdir")
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--stubd", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/debug/stubd"))
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--validator", default=VALIDATOR, help="validate_corpus.py (default) or validate_fixed.py")
    ap.add_argument("--name-from", choices=["file", "parent"], default="file",
                    help="log name: the spec's file name, or its parent folder's name")
    a = ap.parse_args()
    os.makedirs(a.logdir, exist_ok=True)
    summary = os.path.join(a.logdir, "summary.tsv")
    with open(summary, "a") as s:
        for spec in a.specs:
            spec = os.path.abspath(spec)
            name = os.path.splitext(os.path.basename(spec))[0] if a.name_from == "file" else os.path.basename(os.path.dirname(spec))
            t = time.time()
            row = one(spec, name, a.logdir, a.stubd, a.timeout, a.validator)
            line = "\t".join(str(row[k]) for k in ("name", "import", "check", "serve", "validate", "answers", "failed", "verdict"))
            line += "\t%.1fs" % (time.time() - t)
            print(line, flush=True)
            s.write(line + "\n")
            s.flush()


if __name__ == "__main__":
    main()
