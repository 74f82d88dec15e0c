#!/usr/bin/env python3
"""A fleet: three `stubd serve` replicas behind nginx hashing the session (issue 62, item 9).

    python3 Tests/Fleet/fleet_test.py --stubd .build/debug/stubd [--self-test]

Serves Examples/fleet/nginx.conf as it is, its four addresses replaced by free loopback ports, in
front of three replicas of Examples/fleet/Stubs (a virtual clock, a 5-a-minute quota, a cart
scenario, and an answer that says the session's hits, clock and cart). Then:

- 24 sessions at once through nginx, naming themselves by the /__s/ID/ prefix, X-Stubd-Session and
  (admin calls) ?session=, each way against the others: each pings 3 to 7 times (past 5: 429), half
  fill the cart, each moves its clock by its own amount, and every answer and admin report must be
  that session's alone;
- each replica asked directly (GET /__stubd/sessions): every session is on exactly one replica,
  with every one of its requests, and the sessions are spread over more than one replica;
- requests without a session all land on one replica's default session;
- `stubd fleet coverage` on the three replicas equals their reports added up and counts every
  answer and 429; `stubd fleet reset` leaves every replica empty, and with one address where no
  replica runs it still resets the others, names that one and exits 1.

--self-test runs the sessions again with the `hash` line taken out of the configuration (nginx's
round robin), and fails unless that run fails: the checks above must see sessions cross.
Prints what it checks; exits 1 on any failure. Took 1.2 s (14.6 s with --self-test) on a machine at load 50.
"""
import argparse
import calendar
import concurrent.futures
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONF = os.path.join(ROOT, "Examples", "fleet", "nginx.conf")
STUBS = os.path.join(ROOT, "Examples", "fleet", "Stubs")
SESSIONS = 24
START = "2026-01-01T00:00:00Z"  # Examples/fleet/Stubs/stubd.yml's virtual clock
QUOTA = 5                       # its quota on GET /ping, per session and minute


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Replica:
    """One `stubd serve --port 0`, its output read all along (a full pipe would stall its log)."""

    def __init__(self, stubd):
        self.proc = subprocess.Popen([stubd, "serve", "--stubs", STUBS, "--port", "0", "--no-watch"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        first = self.proc.stdout.readline()
        match = re.match(r"stubd listening on http://127\.0\.0\.1:(\d+) ", first)
        if not match:
            self.proc.kill()
            raise SystemExit(f"stubd serve did not start: {first!r}{self.proc.stdout.read()}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Nginx:
    """Examples/fleet/nginx.conf with its addresses replaced, run from a prefix folder of its own."""

    def __init__(self, replicas, round_robin=False):
        with open(CONF) as f:
            conf = f.read()
        self.port = free_port()
        addresses = {"127.0.0.1:8080": self.port}
        addresses.update({f"127.0.0.1:{8081 + i}": r.port for i, r in enumerate(replicas)})
        for address, port in addresses.items():
            # Exactly once each: a changed example must change this test too.
            if len(re.findall(re.escape(address) + r"\b", conf)) != 1:
                raise SystemExit(f"{CONF}: expected {address} once (the test replaces it with a free port)")
            conf = re.sub(re.escape(address) + r"\b", f"127.0.0.1:{port}", conf)
        if round_robin:
            conf, n = re.subn(r"^\s*hash \$stubd_session consistent;\n", "", conf, flags=re.M)
            assert n == 1, "no `hash $stubd_session consistent;` line to take out"
        self.prefix = tempfile.mkdtemp(prefix="stubd-fleet-nginx-")
        os.chmod(self.prefix, 0o755)  # workers run as another user when nginx starts as root
        path = os.path.join(self.prefix, "nginx.conf")
        with open(path, "w") as f:
            f.write(conf)
        nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
        if not nginx:
            raise SystemExit("nginx is missing: run scripts/setup")
        self.proc = subprocess.Popen([nginx, "-p", self.prefix + "/", "-e", os.path.join(self.prefix, "error.log"),
                                      "-c", path, "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 10
        while True:
            try:
                if request(self.url + "/__stubd/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                log = open(os.path.join(self.prefix, "error.log")).read() if os.path.exists(os.path.join(self.prefix, "error.log")) else ""
                self.stop()
                raise SystemExit("nginx did not answer /__stubd/health:\n" + log)
            time.sleep(0.05)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)


def request(url, method="GET", headers=None, body=None):
    """(status, headers, parsed JSON body or text): a 4xx is an answer here, not an exception."""
    data = None if body is None else json.dumps(body).encode()
    headers = dict(headers or {})
    if method in ("POST", "PUT"):
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, answer_headers, raw = r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        status, answer_headers, raw = e.code, e.headers, e.read()
    try:
        return status, answer_headers, json.loads(raw)
    except ValueError:
        return status, answer_headers, raw.decode(errors="replace")


def iso(seconds_after_start):
    t = calendar.timegm(time.strptime(START, "%Y-%m-%dT%H:%M:%SZ")) + seconds_after_start
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def walk_session(fleet, index):
    """One session's requests through the balancer: (id, stub requests made, the replicas that
    answered them (X-Stubd-Replica), pings sent, problems found)."""
    sid = f"fleet-{index:02d}"
    # Each way of naming a session, and each against the others: a session whose stub requests
    # name it by the prefix and whose admin calls name it by the header lands on one replica only
    # if the balancer reads both the same way.
    stubs_by, admin_by = (("prefix", ["prefix"]), ("header", ["query"]), ("prefix", ["header", "query"]))[index % 3]
    problems, replicas, stub_requests, admin_calls = [], set(), 0, 0

    def stub(method, path):
        nonlocal stub_requests
        stub_requests += 1
        if stubs_by == "prefix":
            return call(method, f"/__s/{sid}{path}")
        return call(method, path, {"X-Stubd-Session": sid})

    def admin(method, call_path, body=None):
        nonlocal admin_calls
        by = admin_by[admin_calls % len(admin_by)]
        admin_calls += 1
        if by == "prefix":
            return call(method, f"/__s/{sid}/__stubd/{call_path}", body=body)
        if by == "header":
            return call(method, f"/__stubd/{call_path}", {"X-Stubd-Session": sid}, body)
        join = "&" if "?" in call_path else "?"
        return call(method, f"/__stubd/{call_path}{join}session={sid}", body=body)

    def call(method, path, headers=None, body=None):
        status, answer_headers, answer = request(fleet.url + path, method, headers, body)
        replicas.add(answer_headers.get("X-Stubd-Replica"))
        # Admin calls answer objects; a problem's text (or a stub's) is kept for the message.
        return status, answer if isinstance(answer, dict) else {"answer": answer}

    pings = 3 + index % 5          # 3 to 7: the sessions past 5 meet the quota
    with_cart = index % 2 == 0
    advance = 60 * (index + 1)     # each session's clock its own distance on
    for n in range(1, pings + 1):
        status, answer = stub("GET", "/ping")
        want = 200 if n <= QUOTA else 429
        if status != want:
            problems.append(f"{sid}: ping {n} answered {status}, expected {want} (5 a minute in this session)")
        elif status == 200 and answer != {"hits": n, "now": START, "cart": "Started"}:
            problems.append(f"{sid}: ping {n} answered {answer}, expected hits {n} at {START} in cart state Started")
    if with_cart:
        status, _ = stub("POST", "/cart")
        if status != 201:
            problems.append(f"{sid}: POST /cart answered {status}, expected 201")
    status, clock = admin("POST", "clock/advance", {"seconds": advance})
    if status != 200 or clock.get("offsetSeconds") != advance or clock.get("session") != sid:
        problems.append(f"{sid}: clock/advance {advance} answered {status} {clock}")
    status, answer = stub("GET", "/ping")
    want = {"hits": pings + 1, "now": iso(advance), "cart": "has-item" if with_cart else "Started"}
    if status != 200 or answer != want:
        problems.append(f"{sid}: ping after moving the clock {advance}s answered {status} {answer}, expected {want}")
    status, hits = admin("GET", "hits?route=ping")
    if status != 200 or hits.get("hits") != pings + 1:
        problems.append(f"{sid}: hits of ping answered {status} {hits}, expected {pings + 1}")
    status, scenarios = admin("GET", "scenarios")
    state = {s["name"]: s["state"] for s in scenarios.get("scenarios", [])}
    if state.get("cart") != want["cart"]:
        problems.append(f"{sid}: scenarios answered {status} {scenarios}, expected cart in {want['cart']}")
    return sid, stub_requests, replicas, pings, problems


def check_sessions(fleet, replicas):
    """The 24 sessions at once through nginx, then each replica asked directly: the problems found."""
    with concurrent.futures.ThreadPoolExecutor(SESSIONS) as pool:
        walked = list(pool.map(lambda i: walk_session(fleet, i), range(SESSIONS)))
    problems = [p for w in walked for p in w[4]]
    held = {}  # session id -> [(replica url, requests)]
    for replica in replicas:
        status, _, report = request(replica.url + "/__stubd/sessions")
        for s in report["sessions"]:
            held.setdefault(s["id"], []).append((replica.url, s["requests"]))
    used = set()
    for sid, stub_requests, answered_by, _, _ in walked:
        on = held.get(sid, [])
        if len(on) != 1 or on[0][1] != stub_requests:
            problems.append(f"{sid}: held by {on or 'no replica'}, expected one replica holding its {stub_requests} requests")
        if len(answered_by) != 1:
            problems.append(f"{sid}: answered by {sorted(map(str, answered_by))} (X-Stubd-Replica), expected one replica")
        used.update(r for r, _ in on)
    defaults = [n for _, n in held.get("", [])]
    if any(defaults):
        problems.append(f"the default sessions hold {defaults} requests, expected none: a session's request counted outside it")
    spread = {r.url: sum(1 for sid, *_ in walked if r.url in dict(held.get(sid, []))) for r in replicas}
    print(f"  {SESSIONS} sessions, {sum(w[1] for w in walked)} stub requests; sessions per replica: {spread}")
    if len(used) < 2:
        problems.append(f"every session on {sorted(used)}: the balancer spread nothing")
    return walked, problems


def check_default_session(fleet, replicas):
    """Requests with no session: one replica's default session gets them all."""
    answered_by = set()
    for _ in range(3):
        status, headers, _ = request(fleet.url + "/ping")
        answered_by.add(headers.get("X-Stubd-Replica"))
    counts = {r.url: request(r.url + "/__stubd/sessions")[2]["sessions"][0]["requests"] for r in replicas}
    if len(answered_by) != 1 or sorted(counts.values()) != [0, 0, 3]:
        return [f"3 requests without a session: answered by {sorted(map(str, answered_by))}, default sessions hold {counts}; expected one replica with all 3"]
    print(f"  3 requests without a session: all on {answered_by.pop()}")
    return []


def check_fleet_commands(stubd, replicas, walked):
    problems = []
    urls = [r.url for r in replicas]
    out = subprocess.run([stubd, "fleet", "coverage", *urls, "--format", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        return [f"stubd fleet coverage exited {out.returncode}: {out.stderr}"]
    merged = json.loads(out.stdout)
    each = [request(u + "/__stubd/coverage")[2] for u in urls]

    def item(report, item_id):
        route = next(r for r in report["routes"] if r["route"] == "ping")
        return next(i["hits"] for i in route["items"] if i["id"] == item_id)
    answered = sum(min(p, QUOTA) + 1 for *_, p, _ in walked) + 3  # + the default session's three
    refused = sum(max(p - QUOTA, 0) for *_, p, _ in walked)
    for item_id, want in (("answer 1", answered), ("quota ping exceeded", refused)):
        got, parts = item(merged, item_id), [item(r, item_id) for r in each]
        if got != want or sum(parts) != want:
            problems.append(f"stubd fleet coverage: ping's {item_id!r} has {got} hits (replicas {parts}), expected {want}")
    print(f"  stubd fleet coverage: ping answered {item(merged, 'answer 1')}, refused {item(merged, 'quota ping exceeded')} "
          f"(replicas {[item(r, 'answer 1') for r in each]}); {merged['summary']}")

    # One address where nothing listens: every other replica is still reset, and the command says which failed.
    nobody = f"http://127.0.0.1:{free_port()}"
    out = subprocess.run([stubd, "fleet", "reset", urls[0], nobody, *urls[1:]], capture_output=True, text=True)
    if out.returncode != 1 or nobody not in out.stderr or out.stdout.count("reset all sessions at ") != 3:
        problems.append(f"stubd fleet reset with {nobody} down: exit {out.returncode}, stdout {out.stdout!r}, stderr {out.stderr!r}")
    print(f"  stubd fleet reset with one address down: exit {out.returncode}; {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ''}")
    for u in urls:
        sessions = request(u + "/__stubd/sessions")[2]["sessions"]
        if [(s["id"], s["requests"]) for s in sessions] != [("", 0)]:
            problems.append(f"after stubd fleet reset, {u} holds {[(s['id'], s['requests']) for s in sessions]}, expected only an empty default session")
    out = subprocess.run([stubd, "fleet", "reset", *urls], capture_output=True, text=True)
    if out.returncode != 0:
        problems.append(f"stubd fleet reset exited {out.returncode}: {out.stderr}")
    # Refused before any call: no replica at all, and one given twice (its coverage would count twice).
    for args, says in ((["reset"], "give each replica's URL"), (["coverage", urls[0], urls[0]], "is given twice")):
        out = subprocess.run([stubd, "fleet", *args], capture_output=True, text=True)
        if out.returncode == 0 or says not in out.stderr:
            problems.append(f"stubd fleet {' '.join(args)}: exit {out.returncode}, stderr {out.stderr!r}; expected a refusal saying {says!r}")
    return problems


def run(stubd, round_robin=False):
    replicas = [Replica(stubd) for _ in range(3)]
    fleet = None
    try:
        fleet = Nginx(replicas, round_robin)
        print(f"nginx {fleet.url} ({'round robin' if round_robin else 'hash $stubd_session consistent'}) "
              f"in front of {', '.join(r.url for r in replicas)}")
        walked, problems = check_sessions(fleet, replicas)
        if not round_robin:
            problems += check_default_session(fleet, replicas)
            problems += check_fleet_commands(stubd, replicas, walked)
        return problems
    finally:
        if fleet:
            fleet.stop()
        for r in replicas:
            r.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stubd", required=True)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    stubd = os.path.abspath(args.stubd)
    started = time.time()
    problems = run(stubd)
    for p in problems:
        print("FAIL " + p)
    if args.self_test:
        crossed = run(stubd, round_robin=True)
        print(f"self-test, round robin: {len(crossed)} problems found, as they must be"
              + (f" (first: {crossed[0]})" if crossed else ""))
        if not crossed:
            problems.append("self-test: with round robin in place of the hash, no check failed")
            print("FAIL " + problems[-1])
    print(f"fleet: {'failed' if problems else 'passed'} in {time.time() - started:.1f} s")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
