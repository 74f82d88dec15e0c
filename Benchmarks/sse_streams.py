"""Issue 41's bar for server-sent events: 1,000 open streams held, with the server's memory (RSS) and
thread count while they are open. Each stream gets its first event at once and its next an hour
later (on the wall clock), so every connection stays open, suspended between events.

    python3 Benchmarks/sse_streams.py --stubd .build/release/stubd [--streams 1000]
"""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(__file__))
from stubd_process import StubdProcess

MANIFEST = """routes:
  - name: feed
    request: { path: /feed }
    response:
      events:
        - { id: "1", data: '{"n":1}' }
        - { id: "2", data: '{"n":2}', delay: 1h }
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--stubd", default=".build/release/stubd")
    p.add_argument("--streams", type=int, default=1000)
    a = p.parse_args()
    server = StubdProcess.serving(a.stubd, MANIFEST, a.streams, prefix="stubd-sse-")
    try:
        socks = server.hold_open(a.streams, b"GET /feed HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
                                 b'data: {"n":1}', "open SSE streams (each waiting an hour for its next event)", "stream")
        for s in socks:
            s.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
