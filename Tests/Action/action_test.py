#!/usr/bin/env python3
"""stubd's GitHub Action, run here (issue 62, item 1).

    python3 Tests/Action/action_test.py --stubd .build/debug/stubd [--script PATH] [--build-args "-c debug"]

The action's steps are scripts/github-action/stubd-action.sh; this runs each of its subcommands
as the action does, with the runner's files (GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH,
GITHUB_STEP_SUMMARY) as temporary files, against a temporary Stubs folder of two routes:

1. install from a release tarball: one made here from --stubd, named as .github/workflows/release.yml
   names this machine's, with its SHA256SUMS, under a file:// URL; a tarball whose SHA-256 is not
   its SHA256SUMS' is refused. Then start (port 0), STUBD_URL read back from GITHUB_ENV, one request
   through it, stop with a threshold the run does not meet: the step fails, the coverage report
   (1 of 2 answers) is written.
2. install from source: no tarball at the releases URL, so `swift build --product stubd` in this
   checkout (--build-args; the debug build scripts/test has just made, so it is incremental). Start,
   both routes requested, stop with coverage-fail-under 100: it passes.

Before that, without running anything: action.yml is a composite action whose run steps all call
the script with a subcommand it has, read inputs through env (never `${{ }}` in a script), and use
only declared inputs; Examples/GitHubActions/stubd-tests.yml parses as YAML, runs on ubuntu-latest
and macos-latest, uses the action at this checkout's version with declared inputs, and stops it
with `if: always()`; docs/ci.md names the Debian packages scripts/setup installs for the server.

--script runs another copy of the script (to see this test fail on a broken one). Prints one line
per check, exits 1 on the first failure.
"""
import argparse
import hashlib
import io
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ACTION = os.path.join(ROOT, "action.yml")
WORKFLOW = os.path.join(ROOT, "Examples", "GitHubActions", "stubd-tests.yml")
SUBCOMMANDS = {"plan", "install", "start", "stop"}

STUBS = """routes:
  - name: ping
    request: { path: /ping }
    response: { json: { pong: true } }
  - name: other
    request: { path: /other }
    response: { status: 404, json: { error: nope } }
"""


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def source_version():
    text = open(os.path.join(ROOT, "Sources", "StubdEngine", "Answer", "StubEngine.swift"), encoding="utf-8").read()
    return re.search(r'static let version = "([^"]+)"', text).group(1)


def check_action_file():
    action = yaml.safe_load(open(ACTION, encoding="utf-8"))
    check(action["runs"]["using"] == "composite", "action.yml: runs.using is not composite")
    declared = set(action["inputs"])
    check({"stubs", "version", "port", "serve-args", "coverage-fail-under", "stop"} <= declared,
          f"action.yml: inputs {sorted(declared)} miss one of stubs, version, port, serve-args, coverage-fail-under, stop")
    text = open(ACTION, encoding="utf-8").read()
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    check(used <= declared, f"action.yml uses undeclared inputs {sorted(used - declared)}")
    script = open(os.path.join(ROOT, "scripts", "github-action", "stubd-action.sh"), encoding="utf-8").read()
    ran = set()
    for step in action["runs"]["steps"]:
        if "run" in step:
            check(step.get("shell") == "bash", f"action.yml: step '{step.get('name')}' has no shell: bash (a composite run step needs one)")
            check("${{" not in step["run"], f"action.yml: step '{step.get('name')}' pastes an expression into its script; pass it through env")
            m = re.fullmatch(r'"\$GITHUB_ACTION_PATH/scripts/github-action/stubd-action\.sh" (\w+)', step["run"].strip())
            check(m and m.group(1) in SUBCOMMANDS, f"action.yml: step '{step.get('name')}' does not run stubd-action.sh with one of {sorted(SUBCOMMANDS)}")
            check(f"    {m.group(1)}) cmd_{m.group(1)} ;;" in script, f"stubd-action.sh has no subcommand {m.group(1)}")
            ran.add(m.group(1))
            for value in (step.get("env") or {}).values():
                check(re.fullmatch(r"\$\{\{ inputs\.[a-z-]+ \}\}", value), f"action.yml: env value {value!r} is not one input")
        else:
            check(step["uses"].startswith("actions/cache@"), f"action.yml: unexpected step {step}")
    check(ran == SUBCOMMANDS, f"action.yml runs {sorted(ran)}, not every subcommand")
    print(f"ok   action.yml: a composite action, {len(action['runs']['steps'])} steps, inputs {sorted(declared)}")
    return declared


def check_workflow(declared):
    workflow = yaml.safe_load(open(WORKFLOW, encoding="utf-8"))
    job = next(iter(workflow["jobs"].values()))
    check(set(job["strategy"]["matrix"]["os"]) == {"ubuntu-latest", "macos-latest"},
          f"{WORKFLOW}: the matrix is {job['strategy']['matrix']['os']}, not ubuntu-latest and macos-latest")
    ours = [s for s in job["steps"] if re.fullmatch(r"[\w.-]+/stubd@.+", s.get("uses", ""))]
    want = f"stubd/stubd@v{source_version()}"
    check(len(ours) == 2 and all(s["uses"] == want for s in ours),
          f"{WORKFLOW}: expected two uses of {want} (start, then stop), found {[s.get('uses') for s in ours]}")
    for step in ours:
        check(set(step.get("with", {})) <= declared, f"{WORKFLOW}: {sorted(set(step['with']) - declared)} are not inputs of action.yml")
    stop = ours[1]
    check(str(stop["with"].get("stop")).lower() == "true" and stop.get("if") == "always()",
          f"{WORKFLOW}: the second use must be `stop: true` with `if: always()`")
    print(f"ok   {os.path.relpath(WORKFLOW, ROOT)}: YAML, ubuntu-latest and macos-latest, {want} started and stopped")


def check_ci_page_names_packages():
    """docs/ci.md names every Debian package scripts/setup installs for the server."""
    setup = open(os.path.join(ROOT, "scripts", "setup"), encoding="utf-8").read()
    packages = re.search(r"# The server's C libraries.*\n\s*(.+)\n", setup).group(1).split()
    page = open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read()
    missing = [p for p in packages if p not in page]
    check(not missing, f"docs/ci.md does not name {missing}, which scripts/setup installs for the server (an in-process test needs them)")
    print(f"ok   docs/ci.md names the server's packages scripts/setup installs: {' '.join(packages)}")


def tarball_name(version):
    system = platform.system()
    if system == "Darwin":
        return f"stubd-{version}-macos-universal"
    return f"stubd-{version}-linux-{platform.machine()}"


def make_release(folder, stubd, version):
    """A release as release.yml publishes one: the tarball for this machine and SHA256SUMS."""
    name = tarball_name(version)
    data = io.BytesIO()
    # compresslevel 1: the debug binary is ~95 MB; 1 s instead of ~8 s at the default level.
    with tarfile.open(fileobj=data, mode="w:gz", compresslevel=1) as tar:
        tar.add(stubd, arcname=f"{name}/bin/stubd")
    tarball = os.path.join(folder, f"{name}.tar.gz")
    with open(tarball, "wb") as f:
        f.write(data.getvalue())
    with open(os.path.join(folder, "SHA256SUMS"), "w") as f:
        f.write(f"{hashlib.sha256(data.getvalue()).hexdigest()}  {name}.tar.gz\n")
    return tarball


class Runner:
    """The runner's side of the action: its files, the environment each step gets."""

    def __init__(self, script, scratch, workspace):
        self.script, self.workspace = script, workspace
        self.files = {k: os.path.join(scratch, k.lower()) for k in ("GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")}
        for path in self.files.values():
            open(path, "w").close()
        self.env = dict(os.environ, **self.files, RUNNER_TEMP=scratch, STUBD_ACTION_HOME=os.path.join(scratch, "stubd-action"),
                        STUBD_ACTION_WAIT="30")
        for key in list(self.env):
            if key.startswith("STUBD_") and key not in ("STUBD_ACTION_HOME", "STUBD_ACTION_WAIT"):
                del self.env[key]

    def run(self, subcommand, expect_status=0, timeout=300, **inputs):
        env = dict(self.env, **{f"STUBD_ACTION_{k.upper()}": v for k, v in inputs.items()})
        started = time.monotonic()
        done = subprocess.run(["bash", self.script, subcommand], cwd=self.workspace, env=env, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seconds = time.monotonic() - started
        if done.returncode != expect_status:
            raise Failure(f"stubd-action.sh {subcommand} exited {done.returncode}, expected {expect_status}:\n{done.stdout}")
        return done.stdout, seconds

    def read(self, key):
        """KEY=value lines the steps wrote to a runner file, as a dict (the last write wins)."""
        lines = open(self.files[key]).read().splitlines()
        if key == "GITHUB_PATH":
            return lines
        return dict(line.split("=", 1) for line in lines if "=" in line)


def request(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def serve_cycle(runner, coverage_name, paths, threshold, expect_stop_status):
    out, seconds = runner.run("start", STUBS="Stubs", PORT="0", COVERAGE_OUT=f"reports/{coverage_name}")
    url = runner.read("GITHUB_ENV").get("STUBD_URL", "")
    check(re.fullmatch(r"http://127\.0\.0\.1:\d+", url), f"start exported STUBD_URL={url!r} to GITHUB_ENV, not http://127.0.0.1:PORT:\n{out}")
    check(runner.read("GITHUB_OUTPUT").get("url") == url, "start's `url` output is not STUBD_URL")
    status, body = request(f"{url}/__stubd/health")
    check(status == 200, f"{url}/__stubd/health answered {status} after start")
    for path in paths:
        status, body = request(f"{url}{path}")
        check(status in (200, 404) and body.startswith(b"{"), f"GET {url}{path} through STUBD_URL: {status} {body[:200]!r}")
    status, body = request(f"{url}/ping")
    check(json.loads(body) == {"pong": True}, f"GET {url}/ping answered {body!r}, not the stub")
    print(f"ok   start: STUBD_URL={url} in GITHUB_ENV, healthy, GET /ping through it answered the stub ({seconds:.1f} s)")
    out, seconds = runner.run("stop", expect_status=expect_stop_status, FAIL_UNDER=threshold)
    coverage = os.path.join(runner.workspace, "reports", coverage_name)
    check(os.path.isfile(coverage), f"stop wrote no coverage report at {coverage}:\n{out}")
    check(runner.read("GITHUB_OUTPUT").get("coverage") == coverage, "stop's `coverage` output does not name the report")
    return out, coverage, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubd", required=True, help="the stubd binary the release tarball is made of")
    parser.add_argument("--script", default=os.path.join(ROOT, "scripts", "github-action", "stubd-action.sh"))
    parser.add_argument("--build-args", default="-c debug",
                        help="swift build arguments for the from-source install (the build scripts/test has made)")
    args = parser.parse_args()
    stubd, version = os.path.abspath(args.stubd), source_version()
    args.script = os.path.abspath(args.script)
    started = time.monotonic()
    try:
        declared = check_action_file()
        check_workflow(declared)
        check_ci_page_names_packages()
        with tempfile.TemporaryDirectory(prefix="stubd-action-test-") as scratch:
            workspace = os.path.join(scratch, "workspace")
            os.makedirs(os.path.join(workspace, "Stubs"))
            with open(os.path.join(workspace, "Stubs", "stubd.yml"), "w") as f:
                f.write(STUBS)
            releases = os.path.join(scratch, "releases")
            os.makedirs(releases)
            tarball = make_release(releases, stubd, version)

            # 1. The release tarball.
            runner = Runner(args.script, scratch, workspace)
            runner.env["STUBD_ACTION_RELEASES_URL"] = "file://" + releases
            out, _ = runner.run("plan")
            outputs = runner.read("GITHUB_OUTPUT")
            check(outputs.get("version") == version and outputs.get("cache-key", "").startswith(f"stubd-{version}-"),
                  f"plan wrote {outputs}, not version {version} and a cache key naming it")
            good = open(tarball, "rb").read()
            open(tarball, "wb").write(good[:-1] + bytes([good[-1] ^ 1]))
            out, _ = runner.run("install", expect_status=1)
            check("SHA256SUMS says" in out, f"a tarball whose SHA-256 is not its SHA256SUMS' was not refused as such:\n{out}")
            print("ok   install: a tarball whose SHA-256 differs from SHA256SUMS is refused")
            open(tarball, "wb").write(good)
            out, seconds = runner.run("install")
            bin_dir = os.path.join(runner.env["STUBD_ACTION_HOME"], "install", "bin")
            check(f"installed {os.path.basename(tarball)}" in out, f"install did not take the release tarball:\n{out}")
            check(runner.read("GITHUB_PATH") == [bin_dir], f"install added {runner.read('GITHUB_PATH')} to GITHUB_PATH, not {bin_dir}")
            print(f"ok   install: {os.path.basename(tarball)} from file://, checked against SHA256SUMS, bin/ on GITHUB_PATH ({seconds:.1f} s)")
            out, coverage, seconds = serve_cycle(runner, "tarball.json", ["/ping"], "90", expect_stop_status=1)
            check("1 of 2 items covered (50.0%)" in out and "under --fail-under 90" in out and "coverage is under 90%" in out,
                  f"stop with coverage-fail-under 90 after one of two routes did not fail saying so:\n{out}")
            report = json.load(open(coverage))
            check(json.dumps(report).count('"ping"') >= 1, f"the coverage report does not name the route: {coverage}")
            summary = open(runner.files["GITHUB_STEP_SUMMARY"]).read()
            check("1 of 2 items covered" in summary, f"stop wrote no coverage line to GITHUB_STEP_SUMMARY: {summary!r}")
            print(f"ok   stop: SIGTERM, stubd exited 0, {os.path.basename(coverage)} written (1 of 2 items), coverage-fail-under 90 fails the step ({seconds:.1f} s)")

            # 2. From source: nothing at the releases URL.
            shutil.rmtree(os.path.join(runner.env["STUBD_ACTION_HOME"], "install"))
            empty = os.path.join(scratch, "no-release")
            os.makedirs(empty)
            runner = Runner(args.script, scratch, workspace)
            runner.env.update(STUBD_ACTION_RELEASES_URL="file://" + empty, STUBD_ACTION_SOURCE=ROOT, STUBD_ACTION_BUILD_ARGS=args.build_args)
            out, seconds = runner.run("install", timeout=900)
            check("no release tarball at" in out and "built stubd" in out, f"install did not build from source when there was no tarball:\n{out}")
            print(f"ok   install: no tarball at file://…/no-release, built from {ROOT} (swift build {args.build_args} --product stubd, {seconds:.1f} s)")
            out, coverage, seconds = serve_cycle(runner, "source.json", ["/ping", "/other"], "100", expect_stop_status=0)
            check("2 of 2 items covered (100.0%)" in out, f"stop after both routes did not report 2 of 2:\n{out}")
            print(f"ok   stop: coverage-fail-under 100 met (2 of 2 items), the step passes ({seconds:.1f} s)")
    except Failure as failure:
        print(f"FAIL {failure}")
        return 1
    print(f"stubd's GitHub Action: every check passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
