#!/usr/bin/env python3
"""Streams in a real browser: headless Chromium (Debian's chromium + chromium-driver) through selenium
opens a page stubd serves, whose script opens a `WebSocket` to a WebSocket stub and an `EventSource`
to a server-sent-events stub, as an app's web front end would.

It checks that the WebSocket gets the stub's timeline (a message at once, one 100 ms later), a
reply to a message that matches, and the scripted close with its code and reason; that the
EventSource gets every event with its type and id; and that each counts one hit on its route.

    .build/venv/bin/python Tests/Browser/streams_test.py --stubd .build/release/stubd

Exit 0 when every check passes; otherwise each failure is printed and the exit is 1.
"""
import argparse
import json
import os
import pathlib
import sys
import tempfile
import urllib.request

from browser_checks import check, failures, wait_for
from stubd_in_chromium import StubdInChromium

MANIFEST = """routes:
  - name: chat
    request: { path: /chat }
    response:
      websocket:
        messages:
          - { text: welcome }
          - { json: { type: tick }, after: 100ms }
        replies:
          - { match: { json: { type: join } }, send: { text: joined } }
          - { match: { text: bye }, close: { code: 4000, reason: see you } }
  - name: feed
    request: { path: /feed }
    response:
      events:
        - { event: score, id: "1", data: "1-0" }
        - { event: score, id: "2", data: "1-1", delay: 50ms }
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>streams</title>
<script>
window.log = { ws: [], sse: [], close: null };
const ws = new WebSocket(`ws://${location.host}/chat`);
ws.onmessage = e => {
  log.ws.push(e.data);
  if (log.ws.length === 2) ws.send(JSON.stringify({ type: "join", room: 7 }));
  if (e.data === "joined") ws.send("bye");
};
ws.onclose = e => { log.close = [e.code, e.reason, e.wasClean]; };
const feed = new EventSource("/feed");
feed.addEventListener("score", e => {
  log.sse.push([e.data, e.lastEventId]);
  if (log.sse.length === 2) feed.close();
});
</script>
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubd", default=".build/debug/stubd")
    args = parser.parse_args()
    stubd = os.path.abspath(args.stubd)
    work = pathlib.Path(tempfile.mkdtemp(prefix="stubd-streams-"))
    stubs = work / "Stubs"
    stubs.mkdir()
    (stubs / "stubd.yml").write_text(MANIFEST)
    (stubs / "index.html").write_text(PAGE)
    served = StubdInChromium(stubd, stubs, work)
    try:
        base = served.base_url()
        if not base:
            return 1
        driver = served.open_chromium()
        driver.get(base + "/index.html")
        got = lambda: driver.execute_script("return window.log")
        done, took = wait_for(lambda: (lambda l: l if l["close"] and len(l["sse"]) == 2 else None)(got()), 10)
        result = done or got()
        check(result["ws"] == ["welcome", '{"type":"tick"}', "joined"],
              "the WebSocket got the timeline and the reply: %s" % result["ws"])
        check(result["close"] == [4000, "see you", True], "the WebSocket closed cleanly with 4000 'see you': %s" % result["close"])
        check(result["sse"] == [["1-0", "1"], ["1-1", "2"]], "the EventSource got both events with their ids: %s" % result["sse"])
        hits = json.load(urllib.request.urlopen(base + "/__stubd/hits", timeout=5))
        counts = {r["route"]: r["hits"] for r in hits["routes"]}
        check(counts.get("chat") == 1 and counts.get("feed") == 1, "one hit each for the socket and the stream: %s" % counts)
    finally:
        served.close()
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
