#!/usr/bin/env python3
"""Serve STUBS with `stubd serve --spec STUBD_SPEC`, run validate_corpus.py against it with VALIDATOR_SPEC
(e.g. the bundle_spec.py output of a split spec), stop the server.

usage: serve_and_validate.py STUBD_SPEC STUBS VALIDATOR_SPEC LOGDIR [--timeout S] [--stubd .build/debug/stubd]
"""
import argparse, os, re, subprocess, sys, time
PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/venv/bin/python")
VALIDATOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/StubdServerTests/Fixtures/Corpus/validate_corpus.py")
ap = argparse.ArgumentParser()
ap.add_argument("spec"); ap.add_argument("stubs"); ap.add_argument("vspec"); ap.add_argument("logdir")
ap.add_argument("--timeout", type=int, default=600); ap.add_argument("--stubd", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/debug/stubd"))
a = ap.parse_args()
os.makedirs(a.logdir, exist_ok=True)
slog = os.path.join(a.logdir, "serve-bundled.log")
with open(slog, "w") as f:
    proc = subprocess.Popen([a.stubd, "serve", "--stubs", a.stubs, "--spec", a.spec, "--port", "0", "--no-watch"],
                            stdout=f, stderr=subprocess.STDOUT)
try:
    url = None
    for _ in range(1500):
        m = re.search(r"listening on (http://[0-9.:]+)", open(slog).read())
        if m: url = m.group(1); break
        if proc.poll() is not None: break
        time.sleep(0.2)
    if not url:
        print("serve did not start"); sys.exit(2)
    vlog = os.path.join(a.logdir, "validate-bundled.log")
    with open(vlog, "w") as f:
        try:
            rc = subprocess.run([PY, VALIDATOR, a.vspec, a.stubs, url], stdout=f, stderr=subprocess.STDOUT, timeout=a.timeout).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    print("validate rc=%s; %s" % (rc, open(vlog).read().splitlines()[-1] if open(vlog).read() else ""))
finally:
    proc.terminate()
    try: proc.wait(10)
    except subprocess.TimeoutExpired: proc.kill()
