"""Issue 41's bar for server-sent events: 1,000 open streams held, with the server's memory (RSS) and
thread count while they are open. Each stream gets its first event at once and its next an hour
later (on the wall clock), so every connection stays open, suspended between events.

    python3 Benchmarks/sse_streams.py --stubd .build/release/stubd [--streams 1000]
"""
import argparse, os, resource, socket, sys, tempfile, time

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


def threads(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(l for l in f if l.startswith("Threads")).split()[1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--stubd", default=".build/release/stubd")
    p.add_argument("--streams", type=int, default=1000)
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, a.streams + 256)), hard))
    stubs = tempfile.mkdtemp(prefix="stubd-sse-")
    with open(os.path.join(stubs, "stubd.yml"), "w") as f:
        f.write(MANIFEST)
    server = StubdProcess(a.stubd, stubs, "--max-connections", str(a.streams + 50))
    try:
        idle = (server.rss_mb(), threads(server.proc.pid))
        socks, started = [], time.time()
        for _ in range(a.streams):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"GET /feed HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            socks.append(s)
        # Every stream has sent its headers and first event.
        for s in socks:
            s.settimeout(10)
            got = b""
            while b'data: {"n":1}' not in got:
                chunk = s.recv(4096)
                if not chunk:
                    raise SystemExit("a stream closed early: " + got.decode(errors="replace"))
                got += chunk
        opened = time.time() - started
        time.sleep(1)
        held = (server.rss_mb(), threads(server.proc.pid))
        print(f"{a.streams} open SSE streams (each waiting an hour for its next event), opened in {opened:.2f} s")
        print(f"  idle:  RSS {idle[0]:.1f} MB, {idle[1]} threads")
        print(f"  held:  RSS {held[0]:.1f} MB, {held[1]} threads "
              f"({(held[0] - idle[0]) * 1024 / a.streams:.1f} KB per stream)")
        for s in socks:
            s.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
