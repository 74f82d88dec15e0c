#!/usr/bin/env python3
"""The dashboard in Firefox: Debian's firefox-esr, headless, driven through WebDriver BiDi itself
(Firefox's own remote protocol, over a WebSocket; no geckodriver, which neither Debian nor PyPI
ships), against a running `stubd serve` of a generated folder of 1,000 routes and a weather route.

It checks what issue 30 asks of Firefox: the page loads and shows the routes; a request made with
curl shows up as a hit count and a journal row without a reload, pushed over /__stubd/events (and
nothing is polled meanwhile); an unmatched request shows its nearest route; and, for the whole run,
no console error and no JavaScript exception (BiDi's log.entryAdded at level error, which is where
Firefox reports Content-Security-Policy violations too). And what issue 45 changed, as in Chromium:
column headings that line up with their columns, the unmatched request counted in the Routes
heading and the session picker, a 429's quota note read whole at 1280 px with the frozen clock
said in its tooltip, and deep links (#VIEW, #VIEW/ID, #VIEW/*all*) that keep their session.
Screenshots (firefox-*.png) go to the artifacts folder. The rest (quota and clock actions, sessions,
coverage, keyboard, zoom) is dashboard_test.py's, in Chromium.

    .build/venv/bin/python Tests/Browser/dashboard_firefox_test.py --stubd .build/release/stubd [--artifacts DIR]

Needs firefox-esr (Debian) and websockets (scripts/requirements-test.txt): scripts/setup installs
both. Exit 0 when every check passes; otherwise each failure is printed and the exit is 1.
--inject-error throws an uncaught error in the page, to see the test fail as it should.
"""
import argparse
import asyncio
import base64
import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
import time

from browser_checks import check, curl, make_stubs, missing_module, program, stop, summary, wait_for, workspace

try:
    import websockets
except ImportError as error:
    raise missing_module(error)

class Output:
    """A child's output read line by line on a thread, so its pipe never fills and a line can be waited for."""

    def __init__(self, process, name):
        self.lines = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, args=(process.stdout,), name=name, daemon=True)
        self.thread.start()

    def _read(self, pipe):
        for line in iter(pipe.readline, ""):
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def find(self, text):
        with self.lock:
            return next((line for line in self.lines if text in line), None)

    def text(self):
        with self.lock:
            return "\n".join(self.lines)


class BidiError(Exception):
    pass


class Bidi:
    """One WebDriver BiDi connection, used synchronously: an asyncio loop on its own thread owns the
    socket, answers are matched to commands by id, and events are kept in order as they come."""

    def __init__(self, url, timeout=30):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bidi", daemon=True)
        self.thread.start()
        self.ids = itertools.count(1)
        self.pending = {}
        self.events = []
        self.lock = threading.Lock()
        self.ws = self._run(self._connect(url), timeout)
        self.reader = asyncio.run_coroutine_threadsafe(self._read(), self.loop)

    def _run(self, coroutine, timeout):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    @staticmethod
    async def _connect(url):  # made on the loop's thread, so the connection belongs to that loop
        return await websockets.connect(url, max_size=None, ping_interval=None)

    async def _read(self):
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message.get("id") in self.pending:
                    self.pending.pop(message["id"]).set_result(message)
                elif message.get("type") == "event":
                    with self.lock:
                        self.events.append(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self.pending.values():
                future.set_exception(BidiError("the browser closed the connection"))
            self.pending.clear()

    def call(self, method, params=None, timeout=30):
        async def send():
            number = next(self.ids)
            answer = self.loop.create_future()
            self.pending[number] = answer
            await self.ws.send(json.dumps({"id": number, "method": method, "params": params or {}}))
            return await asyncio.wait_for(answer, timeout)

        message = self._run(send(), timeout + 5)
        if message.get("type") == "error":
            raise BidiError("%s: %s: %s" % (method, message.get("error"), message.get("message")))
        return message["result"]

    def events_of(self, method):
        with self.lock:
            return [e["params"] for e in self.events if e["method"] == method]

    def close(self):
        try:
            self._run(self.ws.close(), 5)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Page:
    """A browsing context: scripts run in the page's own realm, as the page's would."""

    def __init__(self, bidi, context):
        self.bidi = bidi
        self.context = context

    def navigate(self, url):
        return self.bidi.call("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression, ownership="none"):
        result = self.bidi.call("script.evaluate", {"expression": expression, "target": {"context": self.context},
                                                    "awaitPromise": True, "resultOwnership": ownership})
        if result["type"] == "exception":
            raise BidiError("in the page: " + result["exceptionDetails"]["text"])
        return result["result"]

    def js(self, body):
        """Runs a function body in the page; what it returns comes back through JSON."""
        value = self.evaluate("(async () => { %s })().then(v => JSON.stringify(v === undefined ? null : v))" % body)
        return json.loads(value["value"])

    def text(self, selector):
        return self.js("return document.querySelector(%s).textContent" % json.dumps(selector))

    def element(self, selector):
        self.js("document.querySelector(%s).scrollIntoView({block: 'center'})" % json.dumps(selector))
        node = self.evaluate("document.querySelector(%s)" % json.dumps(selector), ownership="root")
        if node.get("type") != "node":
            raise BidiError("no element " + selector)
        return {"sharedId": node["sharedId"]}

    def click(self, selector):
        """A real click: the pointer moves to the element's centre, presses and releases."""
        element = self.element(selector)
        self.bidi.call("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": element}},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]})

    def type(self, selector, text):
        """Clicks into the field, then types text key by key."""
        self.click(selector)
        keys = []
        for ch in text:
            keys += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self.bidi.call("input.performActions", {"context": self.context, "actions": [
            {"type": "key", "id": "keyboard", "actions": keys}]})

    def screenshot(self, path):
        data = self.bidi.call("browsingContext.captureScreenshot", {"context": self.context})["data"]
        path.write_bytes(base64.b64decode(data))
        return path


def check_columns_line_up(page, view, columns):
    """Each heading starts where its column starts in every drawn row (within 1 px), and none is cut."""
    offsets = page.js("""
        const head = document.querySelector('#%s-head .row'), rows = [...document.querySelectorAll('#%s-list .row')];
        return rows.flatMap((row, i) => %s.map(c => [c + ' row ' + i, head.querySelector('.' + c).getBoundingClientRect().left,
                                                     row.querySelector('.' + c).getBoundingClientRect().left]));
        """ % (view, view, json.dumps(columns)))
    apart = [o for o in offsets if abs(o[1] - o[2]) > 1]
    check(offsets and not apart, "the %s headings line up with their columns (%d cells)%s" % (view, len(offsets), "; apart: %s" % apart if apart else ""))
    cut = page.js("return [...document.querySelectorAll('#%s-head .row > span')].filter(h => h.scrollWidth > h.clientWidth).map(h => h.textContent)" % view)
    check(not cut, "no %s heading is cut%s" % (view, ": %s" % cut if cut else ""))


def make_profile(folder):
    """A fresh profile that stays off the network and shows no first-run page."""
    folder.mkdir()
    prefs = {
        "browser.shell.checkDefaultBrowser": False,
        "browser.startup.homepage_override.mstone": "ignore",
        "browser.startup.page": 0,
        "browser.aboutwelcome.enabled": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "app.update.disabledForTesting": True,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "services.settings.server": "data:,#remote-settings-dummy/v1",
        "messaging-system.rsexperimentloader.enabled": False,
        "app.normandy.enabled": False,
    }
    (folder / "user.js").write_text("".join("user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v)) for k, v in prefs.items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubd", default=".build/debug/stubd")
    parser.add_argument("--artifacts", default=".build/dashboard-artifacts")
    parser.add_argument("--firefox", help="the browser (default: firefox-esr, or firefox, from PATH)")
    parser.add_argument("--routes", type=int, default=1_000)
    parser.add_argument("--live-seconds", type=float, default=2,
                        help="bound on a hit reaching the page (the bar is 1 s)")
    parser.add_argument("--inject-error", action="store_true",
                        help="throw an uncaught error in the page: the test must then fail (a check of the test itself)")
    args = parser.parse_args()
    args.firefox = args.firefox or program("firefox-esr", "firefox")
    stubd, artifacts, work, stubs = workspace(args.stubd, args.artifacts, "stubd-dashboard-firefox-")
    make_stubs(stubs, args.routes)
    make_profile(work / "profile")
    total = args.routes + 1

    server = firefox = bidi = None
    try:
        server = subprocess.Popen([stubd, "serve", "--stubs", str(stubs), "--port", "0", "--no-watch"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        served = Output(server, "stubd")
        line, _ = wait_for(lambda: served.find("listening on"), 30, 0.1)
        if not line:
            check(False, "stubd starts:\n" + served.text())
            return 1
        base = line.split("listening on ")[1].split(" ")[0]
        print("stubd at " + base + " with " + str(total) + " routes")

        firefox = subprocess.Popen([args.firefox, "--headless", "--no-remote", "-profile", str(work / "profile"),
                                    "--remote-debugging-port=0", "about:blank"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   env=dict(os.environ, MOZ_CRASHREPORTER_DISABLE="1"))
        browsed = Output(firefox, "firefox")
        line, _ = wait_for(lambda: browsed.find("WebDriver BiDi listening on "), 30, 0.1)
        if not line:
            check(False, "Firefox starts with WebDriver BiDi:\n" + browsed.text())
            return 1
        bidi = Bidi(line.split("listening on ")[1].strip() + "/session")
        version = bidi.call("session.new", {"capabilities": {}})["capabilities"]["browserVersion"]
        print("Firefox %s through WebDriver BiDi" % version)
        bidi.call("session.subscribe", {"events": ["log.entryAdded"]})
        page = Page(bidi, bidi.call("browsingContext.getTree", {})["contexts"][0]["context"])
        bidi.call("browsingContext.setViewport", {"context": page.context, "viewport": {"width": 1280, "height": 900}})

        # The console is read: a message logged in the page arrives as a log entry.
        page.js("console.info('stubd-firefox-test: console is read')")
        seen, _ = wait_for(lambda: any("console is read" in (e.get("text") or "") for e in bidi.events_of("log.entryAdded")), 5)
        check(bool(seen), "the page's console reaches the test (log.entryAdded)")

        page.navigate(base + "/__stubd/ui")
        count, _ = wait_for(lambda: "%d routes" % total in page.text("#routes-count"), 30)
        check(bool(count), "the route list shows %d routes" % total)
        rows = page.js("return document.querySelectorAll('#routes-list .row').length")
        check(0 < rows < 200, "only the visible routes are in the DOM (%d rows of %d)" % (rows, total))
        live, _ = wait_for(lambda: page.text("#live") == "live", 10)
        check(bool(live), "the event stream is open")
        if args.inject_error:
            page.js("setTimeout(() => { throw new Error('injected by --inject-error') })")
        page.screenshot(artifacts / "firefox-routes.png")
        heads = page.js("return document.getElementById('routes-head').innerText.split('\\n').filter(Boolean)")
        check(heads == ["Hits", "Method", "Path", "Name or file"], "the Routes list has column headings: %s" % heads)
        check_columns_line_up(page, "routes", ["hits", "method", "path", "name"])

        # Live hit counts, without a reload and without polling: stubd pushes them over /__stubd/events.
        page.js("window.__noReload = 1")
        page.type("#routes-filter", "weather")
        hits = lambda: page.text('#routes-list .row[data-route="weather"] .hits')
        seen, _ = wait_for(lambda: hits() == "0", 5)
        check(bool(seen), "the filter leaves the weather route, with 0 hits")
        fetched = "return performance.getEntriesByType('resource').length"
        quiet_before = page.js(fetched)
        time.sleep(1.5)
        quiet_after = page.js(fetched)
        check(quiet_before == quiet_after, "nothing is fetched while nothing changes (%d then %d requests)" % (quiet_before, quiet_after))
        check(curl(base, "/weather?q=London") == "200" and curl(base, "/weather?q=London") == "200", "curl gets the weather twice")
        seen, took = wait_for(lambda: hits() == "2", args.live_seconds)
        check(bool(seen), "the hit count reads 2 without a reload (after %.2f s, bound %.1f s)" % (took, args.live_seconds))
        check(page.js("return window.__noReload") == 1, "the page was not reloaded")

        # The journal: an unmatched request arrives live and names its nearest route.
        page.click('nav button[data-view="requests"]')
        seen, _ = wait_for(lambda: page.js("return document.querySelectorAll('#requests-list .row').length") >= 2, 5)
        check(bool(seen), "the journal shows the two weather requests")
        check(curl(base, "/weathr?q=Paris") == "404", "curl gets 404 for /weathr")
        first = lambda: page.text("#requests-list .row")
        seen, took = wait_for(lambda: "/weathr" in first() and "unmatched" in first(), args.live_seconds)
        check(bool(seen), "the unmatched request heads the journal without a reload (after %.2f s, bound %.1f s)" % (took, args.live_seconds))
        page.click("#requests-list .row")
        detail, _ = wait_for(lambda: page.js("const d = document.getElementById('request-detail'); return d.hidden ? '' : d.innerText"), 5)
        check(bool(detail) and "weather (GET /weather)" in detail, "the unmatched request names its nearest route: " + (detail or "").replace("\n", " | ")[:300])
        check(page.js("return window.__noReload") == 1, "the page was still not reloaded")
        page.screenshot(artifacts / "firefox-requests.png")
        check_columns_line_up(page, "requests", ["time", "status", "method", "path", "name", "took", "quota"])

        # The routes' hits and the session's requests differ by the unmatched request: both say so.
        page.click('nav button[data-view="routes"]')
        seen, _ = wait_for(lambda: "1 unmatched request, under Requests" in page.text("#routes-count"), 5)
        check(bool(seen), "the Routes heading counts the unmatched request: " + page.text("#routes-count"))
        picked = page.js("const s = document.getElementById('session'); return s.options[s.selectedIndex].text")
        check(picked.startswith("default — 3 requests, 1 unmatched"), "the session picker counts it too: " + picked)

        # A 429 on the frozen clock (two of the minute's five used above): at 1280 px its quota note
        # is read whole in the row, and the row's tooltip says why Retry-After does not count down.
        statuses = [curl(base, "/weather?q=London") for _ in range(4)]
        check(statuses == ["200"] * 3 + ["429"], "the sixth request in the minute gets 429: %s" % statuses)
        page.click('nav button[data-view="requests"]')
        note = lambda: page.text("#requests-list .row .quota")
        seen, _ = wait_for(lambda: "exceeded" in note(), args.live_seconds)
        check(bool(seen) and note() == "weatherquota exceeded, retry in 60s", "the 429 heads the journal with its quota note: " + note())
        cut = page.js("const q = document.querySelector('#requests-list .row .quota'); return [q.scrollWidth, q.clientWidth, window.innerWidth]")
        check(cut[0] <= cut[1], "at %d px the quota note is not cut (%d ≤ %d)" % (cut[2], cut[0], cut[1]))
        tooltip = page.js("return document.querySelector('#requests-list .row .quota').title")
        check("clock stands still" in tooltip, "the row's tooltip says the virtual clock stands still: " + tooltip)
        check_columns_line_up(page, "requests", ["time", "status", "method", "path", "name", "took", "quota"])
        page.screenshot(artifacts / "firefox-requests-429.png")

        # Deep links: #VIEW is the default session, #VIEW/ID a named one, #VIEW/*all* every session.
        check(curl(base, "/weather?q=London", "-H", "X-Stubd-Session: t1") == "200", "curl makes session t1")
        for link, session, view in [("#requests", "", "requests"), ("#quotas/t1", "t1", "quotas"), ("#routes/*all*", "*all*", "routes")]:
            page.navigate("about:blank")
            page.navigate(base + "/__stubd/ui" + link)
            picked, _ = wait_for(lambda: page.js("const s = document.getElementById('session'); return s && s.options.length ? s.value + '|' : null"), 10)
            shown = page.js("const b = document.querySelector('nav button[aria-pressed=\"true\"]'); return b ? b.dataset.view : null")
            hash = page.js("return location.hash")
            check(picked == session + "|" and shown == view and hash == link,
                  "opening %s shows %s for session %r (got %s for %r, hash %s)" % (link, view, session or "default", shown, picked, hash))

    except Exception as error:  # a step that could not go on (an element never drawn): a failure, not a crash
        check(False, "the test stopped at: %s: %s" % (type(error).__name__, str(error).split("\n")[0]))
    finally:
        if bidi:
            # Read before the browser closes: closing it ends the event stream, which is not the page's error.
            time.sleep(0.3)
            entries = bidi.events_of("log.entryAdded")
            errors = [e for e in entries if e.get("level") == "error"]
            check(not errors, "no console errors, JavaScript exceptions or CSP violations (%d log entries read)%s"
                  % (len(entries), "".join("\n    %s: %s" % (e.get("type"), e.get("text")) for e in errors)))
            try:
                bidi.call("browser.close", timeout=10)
            except Exception:
                pass
            bidi.close()
        stop(firefox)
        stop(server)
        shutil.rmtree(work, ignore_errors=True)
    return summary(artifacts)


if __name__ == "__main__":
    sys.exit(main())
