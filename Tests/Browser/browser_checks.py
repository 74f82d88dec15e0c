"""What the two browser tests (dashboard_test.py in Chromium, dashboard_firefox_test.py in Firefox)
share: the check list, the folders a run starts from, waiting on the page, the generated Stubs
folder, curl, stopping a child and the summary."""
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

failures = []


def program(name, *others):
    """The path of the first of these programs that is installed. When none is, the test fails (exit 1)
    naming the command that installs it: nothing is skipped."""
    for candidate in (name,) + others:
        path = shutil.which(candidate)
        if path:
            return path
    raise SystemExit(f"{name} is missing: run scripts/setup (it installs every tool the tests use)")


def missing_module(error):
    """What to do about a Python module the test imports that is not there."""
    import sys
    return SystemExit(f"the Python module {error.name} is missing from {sys.executable}: run scripts/setup, "
                      "and run this test with .build/venv/bin/python")


def workspace(stubd, artifacts, prefix):
    """What a dashboard test starts from, curl checked first: stubd's absolute path, the screenshots'
    folder (made), and a new work folder with the path its Stubs folder goes in."""
    program("curl")
    artifacts = pathlib.Path(artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    return os.path.abspath(stubd), artifacts, work, work / "Stubs"


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def wait_for(predicate, timeout, interval=0.05):
    """Polls the page (not stubd) until predicate() is truthy; returns (value, seconds) or (None, timeout)."""
    started = time.monotonic()
    while True:
        try:
            value = predicate()
        except Exception:  # an element replaced while read: try again
            value = None
        if value:
            return value, time.monotonic() - started
        if time.monotonic() - started > timeout:
            return None, timeout
        time.sleep(interval)


def make_stubs(folder, routes, remembering=False):
    """`routes` plain files, a `weather` route under a 5-a-minute quota on a virtual clock; with
    `remembering`, a `todos` resource (one seed item), a `checkout` scenario, an `order` scenario keyed
    by the order's id and a `chat` WebSocket too. Returns how
    many routes the folder serves."""
    (folder / "items").mkdir(parents=True)
    for i in range(routes):
        (folder / "items" / f"i{i:05d}.json").write_text('{"id": %d}' % i)
    manifest = """routes:
  - name: weather
    request: { path: /weather, query: { q: London } }
    response: { json: { temp: 21 } }
"""
    if remembering:
        manifest += """  - name: pay
    request: { method: POST, path: /pay }
    response: { json: { paid: true } }
    scenario: checkout
    whenState: Started
    thenState: paid
  - name: order-pay
    request: { method: POST, path: "/orders/{id}/pay" }
    response: { json: { paid: true } }
    scenario: order
    scenarioKey: { path: id }
    thenState: paid
  - name: chat
    request: { path: /chat }
    response: { websocket: { messages: [{ text: welcome }] } }
resources:
  - path: /todos
    items: [{ id: 1, title: write the test }]
"""
    (folder / "stubd.yml").write_text(manifest + """quotas:
  - name: weatherquota
    routes: ["GET /weather"]
    limits: ["5/minute"]
clock: { virtual: "2016-08-30T00:00:00Z" }
""")
    # The files, the weather route, and with state the pay, order-pay and chat routes and the resource's six.
    return routes + 1 + (9 if remembering else 0)


def curl(base, path, *extra):
    return subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", *extra, base + path],
                          capture_output=True, text=True, check=True).stdout


def stop(process, seconds=10):
    """Terminates a child (stubd, the browser) and waits for it; killed if it does not go in time."""
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def summary(artifacts):
    """Prints the outcome and returns the exit status: 1 when any check failed."""
    print("screenshots in " + str(artifacts))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0
