#!/usr/bin/env python3
"""The dashboard in a real browser: headless Chromium (Debian's chromium + chromium-driver) through
selenium, against a running `stubd serve` of a generated folder of 10,000 routes.

It checks what a user would: the page loads with no console error (CSP violations are errors
too); a request made with curl shows up as a hit count and a journal row without a reload,
pushed over /__stubd/events (and nothing is polled meanwhile); an unmatched request shows its
nearest route, and "copy as stub" gives YAML that `stubd check` accepts; the quota, clock and
session views act; the State view follows a resource's count and a scenario's state live, and sets one; every action is reachable with Tab; at 200% zoom nothing scrolls sideways.
A screenshot of each view goes to the artifacts folder.

    .build/venv/bin/python Tests/Browser/dashboard_test.py --stubd .build/release/stubd [--artifacts DIR]

Exit 0 when every check passes; otherwise each failure is printed and the exit is 1.
"""
import argparse
import json
import shutil
import subprocess
import sys
import time

from browser_checks import check, curl, make_stubs, missing_module, summary, wait_for, workspace
from stubd_in_chromium import StubdInChromium

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
    from websockets.sync.client import connect as ws_connect
except ImportError as error:
    raise missing_module(error)


def check_columns_line_up(js, view, columns):
    """Each heading starts where its column starts in every drawn row (within 1 px)."""
    offsets = js("""
        const head = document.querySelector('#%s-head .row'), rows = [...document.querySelectorAll('#%s-list .row')];
        return rows.flatMap((row, i) => arguments[0].map(c => [c + ' row ' + i, head.querySelector('.' + c).getBoundingClientRect().left,
                                                               row.querySelector('.' + c).getBoundingClientRect().left]));
        """ % (view, view), columns)
    apart = [o for o in offsets if abs(o[1] - o[2]) > 1]
    check(not apart, "the %s headings line up with their columns%s" % (view, "; apart: %s" % apart if apart else ""))
    cut = js("return [...document.querySelectorAll('#%s-head .row > span')].filter(h => h.scrollWidth > h.clientWidth).map(h => h.textContent)" % view)
    check(not cut, "no %s heading is cut%s" % (view, ": %s" % cut if cut else ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubd", default=".build/debug/stubd")
    parser.add_argument("--artifacts", default=".build/dashboard-artifacts")
    parser.add_argument("--routes", type=int, default=10_000)
    parser.add_argument("--first-paint-ms", type=float, default=3000,
                        help="bound on the time from navigation to the route list drawn (the bar is 300 ms, release build, quiet machine)")
    parser.add_argument("--live-seconds", type=float, default=5,
                        help="bound on a hit reaching the page (the bar is 1 s; bounded generously on a loaded machine)")
    args = parser.parse_args()
    stubd, artifacts, work, stubs = workspace(args.stubd, args.artifacts, "stubd-dashboard-")
    total = make_stubs(stubs, args.routes, remembering=True)

    served = StubdInChromium(stubd, stubs, work)
    driver = None
    try:
        base = served.base_url()
        if not base:
            return 1
        print("stubd at " + base + " with " + str(total) + " routes")

        driver = served.open_chromium("--window-size=1280,900", browser_log=True)
        driver.set_script_timeout(10)
        js = driver.execute_script

        driver.get(base + "/__stubd/ui")
        count, _ = wait_for(lambda: "%d routes" % total in driver.find_element(By.ID, "routes-count").text, 30)
        check(bool(count), "the route list shows %d routes" % total)
        paint = js("const m = performance.getEntriesByName('stubd-routes-rendered')[0]; return m ? m.startTime : null")
        check(paint is not None and paint < args.first_paint_ms,
              "first paint of %d routes: %s ms (bound %.0f ms)" % (total, None if paint is None else round(paint), args.first_paint_ms))
        rows = js("return document.querySelectorAll('#routes-list .row').length")
        check(0 < rows < 200, "only the visible routes are in the DOM (%d rows of %d)" % (rows, total))
        live, _ = wait_for(lambda: driver.find_element(By.ID, "live").text == "live", 10)
        check(bool(live), "the event stream is open")
        driver.save_screenshot(str(artifacts / "routes.png"))
        heads = driver.find_element(By.ID, "routes-head").text.split("\n")
        check(heads == ["Hits", "Method", "Path", "Name or file"], "the Routes list has column headings: %s" % heads)
        check_columns_line_up(js, "routes", ["hits", "method", "path", "name"])

        # Live hit counts, without a reload and without polling.
        js("window.__noReload = 1")
        driver.find_element(By.ID, "routes-filter").send_keys("weather")
        row = lambda: driver.find_element(By.CSS_SELECTOR, '#routes-list .row[data-route="weather"] .hits').text
        wait_for(lambda: row() == "0", 5)
        quiet_before = js("return performance.getEntriesByType('resource').length")
        time.sleep(1.5)
        quiet_after = js("return performance.getEntriesByType('resource').length")
        check(quiet_before == quiet_after, "nothing is fetched while nothing changes (%d then %d requests)" % (quiet_before, quiet_after))
        check(curl(base, "/weather?q=London") == "200" and curl(base, "/weather?q=London") == "200", "curl gets the weather twice")
        seen, took = wait_for(lambda: row() == "2", args.live_seconds)
        check(bool(seen), "the hit count reads 2 without a reload (after %.2f s)" % took)
        check(js("return window.__noReload") == 1, "the page was not reloaded")

        # The journal: newest first, an unmatched request with its nearest route, and copy as stub.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="requests"]').click()
        wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#requests-list .row")) >= 2, 5)
        check(curl(base, "/weathr?q=Paris") == "404", "curl gets 404 for /weathr")
        first = lambda: driver.find_element(By.CSS_SELECTOR, "#requests-list .row").text
        seen, took = wait_for(lambda: "/weathr" in first() and "unmatched" in first(), args.live_seconds)
        check(bool(seen), "the unmatched request heads the journal without a reload (after %.2f s)" % took)
        rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#requests-list .row")]
        check(any("weatherquota" in r and ("µs" in r or " ms" in r) for r in rows),
              "a quota'd request's row shows its quota state and how long it took: " + " | ".join(rows)[:300])
        driver.find_element(By.CSS_SELECTOR, "#requests-list .row").click()
        detail = driver.find_element(By.ID, "request-detail").text
        check("weather" in detail, "the unmatched request names its nearest route: " + detail.replace("\n", " | ")[:300])
        driver.find_element(By.ID, "copy-stub").click()
        yaml = driver.find_element(By.ID, "stub-yaml").get_attribute("value")
        copied = work / "Copied"
        copied.mkdir()
        (copied / "stubd.yml").write_text(yaml)
        checked = subprocess.run([stubd, "check", "--stubs", str(copied)], capture_output=True, text=True)
        check(checked.returncode == 0, "stubd check accepts the copied stub:\n" + yaml + checked.stdout + checked.stderr)
        driver.save_screenshot(str(artifacts / "requests.png"))
        check_columns_line_up(js, "requests", ["time", "status", "method", "path", "name", "took", "quota"])

        # The routes' hits and the session's requests differ by the unmatched request: both say so.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="routes"]').click()
        seen, _ = wait_for(lambda: "1 unmatched request, under Requests" in driver.find_element(By.ID, "routes-count").text, 5)
        check(bool(seen), "the Routes heading counts the unmatched request: " + driver.find_element(By.ID, "routes-count").text)
        picked = js("const s = document.getElementById('session'); return s.options[s.selectedIndex].text")
        check(picked.startswith("default — 3 requests, 1 unmatched"), "the session picker counts it too: " + picked)

        # Quotas on the session's clock, and resetting one.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="quotas"]').click()
        seen, _ = wait_for(lambda: "2 / 5 used" in driver.find_element(By.ID, "quotas").text, 5)
        check(bool(seen), "the quota reads 2 / 5 used")
        check("3 remaining" in driver.find_element(By.ID, "quotas").text and "2016-08-30" in driver.find_element(By.ID, "quotas").text,
              "remaining and the reset time on the session's (virtual) clock are shown")
        driver.save_screenshot(str(artifacts / "quotas.png"))
        driver.find_element(By.XPATH, "//div[@id='quotas']//button[starts-with(., 'Reset weatherquota')]").click()
        seen, _ = wait_for(lambda: "0 / 5 used" in driver.find_element(By.ID, "quotas").text, 5)
        check(bool(seen), "resetting the quota from the page brings it to 0 / 5")

        # The clock.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="clock"]').click()
        wait_for(lambda: "2016-08-30T00:00:00" in driver.find_element(By.ID, "clock").text, 5)
        seconds = driver.find_element(By.ID, "clock-seconds")
        seconds.clear()
        seconds.send_keys("90")
        driver.find_element(By.CSS_SELECTOR, "#clock-advance button").click()
        seen, _ = wait_for(lambda: "2016-08-30T00:01:30" in driver.find_element(By.ID, "clock").text, 5)
        check(bool(seen), "advancing the clock 90 s from the page moves it to 00:01:30")

        # Sessions: a new one appears live; resetting it from the page.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="sessions"]').click()
        curl(base, "/weather?q=London", "-H", "X-Stubd-Session: t1")
        seen, _ = wait_for(lambda: "t1" in driver.find_element(By.ID, "sessions").text, args.live_seconds)
        check(bool(seen), "session t1 appears")
        driver.save_screenshot(str(artifacts / "sessions.png"))

        # Coverage: the whole server's, what no request reached first.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="coverage"]').click()
        seen, _ = wait_for(lambda: "items covered" in driver.find_element(By.ID, "coverage-summary").text, 5)
        check(bool(seen), "coverage: " + driver.find_element(By.ID, "coverage-summary").text)
        missing = driver.find_elements(By.CSS_SELECTOR, "#coverage-list .row.miss")
        check(0 < len(missing) < 200, "only the visible uncovered items are drawn (%d)" % len(missing))
        driver.find_element(By.ID, "coverage-filter").send_keys("weatherquota")
        seen, _ = wait_for(lambda: any("429" in r.text for r in driver.find_elements(By.CSS_SELECTOR, "#coverage-list .row.miss")), 5)
        check(bool(seen), "the unreached 429 of weatherquota is listed")
        # The list is one Tab stop; the arrow keys walk its rows.
        driver.find_element(By.ID, "coverage-filter").clear()
        driver.find_element(By.ID, "coverage-filter").send_keys(" ")
        driver.find_element(By.ID, "coverage-filter").send_keys(Keys.BACKSPACE)
        driver.find_element(By.ID, "coverage-list").send_keys(Keys.ARROW_DOWN)
        for _ in range(30):
            driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        index = js("return document.activeElement.dataset.index")
        check(index == "30", "ArrowDown walks the virtual list past what was first drawn (row %s)" % index)
        driver.save_screenshot(str(artifacts / "coverage.png"))

        # Server: whether it records or proxies, and the spec (this one has neither).
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="server"]').click()
        seen, _ = wait_for(lambda: "Neither recording nor proxying" in driver.find_element(By.ID, "server-forwarding").text, 5)
        check(bool(seen), "server: " + driver.find_element(By.ID, "view-server").text.replace("\n", " | ")[:200])
        check("No spec loaded" in driver.find_element(By.ID, "server-contract").text, "server: says no spec is loaded")
        driver.save_screenshot(str(artifacts / "server.png"))

        # A 429 on the frozen clock: at 1280 px its quota note is read whole in the row, and the
        # row's tooltip and the detail say why Retry-After does not count down. (After coverage,
        # which expects the 429 unreached.) The columns of all rows line up under the headings.
        statuses = [curl(base, "/weather?q=London") for _ in range(6)]
        check(statuses == ["200"] * 5 + ["429"], "the sixth request in the minute gets 429: %s" % statuses)
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="requests"]').click()
        quota = lambda: driver.find_element(By.CSS_SELECTOR, "#requests-list .row .quota")
        seen, _ = wait_for(lambda: "exceeded" in quota().text, args.live_seconds)
        check(bool(seen), "the 429 heads the journal with its quota note: " + quota().text)
        check(quota().text == "weatherquota exceeded, retry in 30s", "the row's quota note: " + quota().text)
        cut = js("const q = document.querySelector('#requests-list .row .quota'); return [q.scrollWidth, q.clientWidth, window.innerWidth]")
        check(cut[0] <= cut[1], "at %d px the quota note is not cut (%d ≤ %d)" % (cut[2], cut[0], cut[1]))
        check("clock stands still" in quota().get_attribute("title"), "the row's tooltip says the virtual clock stands still")
        driver.find_element(By.CSS_SELECTOR, "#requests-list .row").click()
        check("clock stands still until POST /__stubd/clock/advance" in driver.find_element(By.ID, "request-detail").text,
              "the detail says why Retry-After does not count down")
        check_columns_line_up(js, "requests", ["time", "status", "method", "path", "name", "took", "quota"])
        driver.save_screenshot(str(artifacts / "requests-429.png"))

        # State: the session's scenarios and resources, live. An item created through the resource
        # route and a state set through the admin API show up without a reload; the page's own
        # button moves the scenario back.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="state"]').click()
        scenario = lambda: driver.find_element(By.CSS_SELECTOR, '#scenarios .card[data-scenario="checkout"] .state').text
        todos = lambda: driver.find_element(By.CSS_SELECTOR, '#resources dd[data-resource="todos"]').text
        seen, _ = wait_for(lambda: scenario() == "Started" and todos() == "1 item at /todos", 5)
        check(bool(seen), "state: checkout in Started, 1 todo: " + driver.find_element(By.ID, "view-state").text.replace("\n", " | ")[:300])
        check(curl(base, "/todos", "--json", '{"title": "see it listed"}') == "201", "curl creates a todo (201)")
        seen, took = wait_for(lambda: todos() == "2 items at /todos", args.live_seconds)
        check(bool(seen), "the todos count reads 2 without a reload (after %.2f s): %s" % (took, todos()))
        check(curl(base, "/__stubd/scenarios/checkout", "-X", "PUT", "--json", '{"state": "paid"}') == "200", "the admin API sets checkout to paid")
        seen, took = wait_for(lambda: scenario() == "paid", args.live_seconds)
        check(bool(seen), "the scenario reads paid without a reload (after %.2f s): %s" % (took, scenario()))
        Select(driver.find_element(By.CSS_SELECTOR, '#scenarios select[data-scenario="checkout"]')).select_by_value("Started")
        driver.find_element(By.XPATH, "//div[@id='scenarios']//button[. = 'Set checkout']").click()
        seen, _ = wait_for(lambda: scenario() == "Started", 5)
        check(bool(seen), "the page's Set button moves checkout back to Started: " + scenario())
        held = json.loads(subprocess.run(["curl", "-s", base + "/__stubd/scenarios"], capture_output=True, text=True).stdout)["scenarios"]
        check(held[0]["state"] == "Started", "the server holds it in Started: %s" % held)
        # A keyed scenario: each order's state, one moved by a request, one by the page.
        order = lambda key: driver.find_element(By.CSS_SELECTOR, '#scenarios .card[data-scenario="order"] dd[data-key="%s"]' % key).text
        check(curl(base, "/orders/17/pay", "-X", "POST") == "200", "curl pays order 17")
        seen, took = wait_for(lambda: order("17") == "paid", args.live_seconds)
        check(bool(seen), "order 17 reads paid without a reload (after %.2f s): %s" % (took, driver.find_element(By.ID, "scenarios").text.replace("\n", " | ")[:300]))
        # A request elsewhere in the session refetches the view; the same documents are not drawn
        # again, so a key half typed keeps its focus and its text.
        key_field = '#scenarios input[data-scenario="order"]'
        driver.find_element(By.CSS_SELECTOR, key_field).send_keys("1")
        driver.execute_script("performance.clearResourceTimings()")
        refetched = lambda: driver.execute_script(
            "return performance.getEntriesByType('resource').some(e => e.name.includes('/__stubd/scenarios'))")
        check(curl(base, "/items/i00001.json") == "200", "curl asks for a plain route")
        seen, _ = wait_for(refetched, args.live_seconds)
        driver.switch_to.active_element.send_keys("8")
        typed = driver.find_element(By.CSS_SELECTOR, key_field).get_attribute("value")
        check(bool(seen) and typed == "18", "a request elsewhere refetches State (%s) and the key being typed keeps its focus: %r"
              % ("refetched" if seen else "not refetched", typed))
        Select(driver.find_element(By.CSS_SELECTOR, '#scenarios select[data-scenario="order"]')).select_by_value("paid")
        driver.find_element(By.XPATH, "//div[@id='scenarios']//button[. = 'Set order']").click()
        seen, _ = wait_for(lambda: order("18") == "paid" and order("17") == "paid", 5)
        check(bool(seen), "the page's Set button with key 18 moves order 18 to paid, 17 stays: " + driver.find_element(By.ID, "scenarios").text.replace("\n", " | ")[:300])

        # WebSockets: a socket the app opens shows at once; what it sent, with the next change (a push).
        chat = lambda: driver.find_element(By.CSS_SELECTOR, '#websockets dd[data-websocket="chat"]').text
        seen, _ = wait_for(lambda: chat().startswith("0 open"), 5)
        check(bool(seen), "no socket open on chat yet")
        with ws_connect(base.replace("http://", "ws://") + "/chat") as socket:
            check(socket.recv(timeout=5) == "welcome", "a WebSocket client opens chat and gets its welcome")
            seen, took = wait_for(lambda: chat().startswith("1 open"), args.live_seconds)
            check(bool(seen), "the open socket shows without a reload (after %.2f s)" % took)
            socket.send("hello")
            check(curl(base, "/__stubd/websockets/chat/messages", "--json", '{"text": "pushed"}') == "200", "the admin API pushes to it")
            check(socket.recv(timeout=5) == "pushed", "the client gets the push")
            seen, _ = wait_for(lambda: chat() == "1 open, 1 received from the app, 2 sent to it", args.live_seconds)
            check(bool(seen), "the panel counts the message the app sent and the two it got: " + driver.find_element(By.ID, "websockets").text)
        driver.save_screenshot(str(artifacts / "state.png"))
        check(js("return window.__noReload") == 1, "the page was not reloaded")

        # Deep links: #VIEW is the default session, #VIEW/ID a named one, #VIEW/*all* every session.
        for link, session, view in [("#requests", "", "requests"), ("#quotas/t1", "t1", "quotas"), ("#routes/*all*", "*all*", "routes")]:
            driver.get("about:blank")
            driver.get(base + "/__stubd/ui" + link)
            picked, _ = wait_for(lambda: js("const s = document.getElementById('session'); return s.options.length ? s.value + '|' : null"), 10)
            shown = js("return document.querySelector('nav button[aria-pressed=\"true\"]').dataset.view")
            check(picked == session + "|" and shown == view and js("return location.hash") == link,
                  "opening %s shows %s for session %r (got %s for %r, hash %s)" % (link, view, session or "default", shown, picked, js("return location.hash")))

        # Keyboard: Tab reaches every action of each view.
        for view in ["routes", "requests", "quotas", "sessions", "clock", "state", "coverage", "server"]:
            driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="%s"]' % view).click()
            time.sleep(0.3)
            if view == "requests":
                driver.find_element(By.CSS_SELECTOR, "#requests-list .row").click()
                time.sleep(0.2)
            wanted = js("""
                const all = [...document.querySelectorAll('header select, nav button, main section:not([hidden]) button:not(.row), main section:not([hidden]) input, main section:not([hidden]) textarea')];
                all.forEach((e, i) => e.dataset.tabProbe = String(i));
                return all.map(e => e.dataset.tabProbe + ' ' + (e.textContent.trim() || e.id || e.type));""")
            js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
            reached = set()
            for _ in range(len(wanted) + 80):
                driver.switch_to.active_element.send_keys(Keys.TAB)
                probe = js("return document.activeElement && document.activeElement.dataset.tabProbe")
                if probe is not None:
                    reached.add(probe)
            missed = [w for w in wanted if w.split(" ")[0] not in reached]
            check(not missed, "Tab reaches every control of the %s view (%d)%s" % (view, len(wanted), "; missed: " + ", ".join(missed) if missed else ""))

        # 200% zoom: a 1280-pixel window shows 640 CSS pixels; the layout must not scroll sideways.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 640, "height": 450, "deviceScaleFactor": 2, "mobile": False})
        for view in ["routes", "requests", "quotas", "sessions", "clock", "state", "coverage", "server"]:
            driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="%s"]' % view).click()
            time.sleep(0.3)
            widths = js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            check(widths[0] <= widths[1], "at 200%% zoom the %s view does not scroll sideways (%d ≤ %d)" % (view, widths[0], widths[1]))
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="requests"]').click()
        driver.save_screenshot(str(artifacts / "zoom200-requests.png"))

    except Exception as error:  # a step that could not go on (an element never drawn): a failure, not a crash
        check(False, "the test stopped at: " + str(error).split("\n")[0])
    finally:
        if driver:
            errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
            check(not errors, "no console errors" + ("".join("\n    " + e["message"] for e in errors)))
        served.close()
        shutil.rmtree(work, ignore_errors=True)
    return summary(artifacts)


if __name__ == "__main__":
    sys.exit(main())
