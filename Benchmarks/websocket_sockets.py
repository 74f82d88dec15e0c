"""Issue 41's bar for WebSockets: 1,000 open sockets held, with the server's memory (RSS) and thread
count while they are open. Each socket gets its first message at once and its next an hour later (on
the wall clock), so every one stays open, waiting on its timer. Then a client that sends a lot and
reads nothing: the server's RSS must not grow past its bound for that socket.

    python3 Benchmarks/websocket_sockets.py --stubd .build/release/stubd [--sockets 1000]
"""
import argparse, base64, os, socket, struct, sys, time

sys.path.insert(0, os.path.dirname(__file__))
from stubd_process import StubdProcess

MANIFEST = """routes:
  - name: feed
    request: { path: /feed }
    response:
      websocket:
        messages:
          - { text: first }
          - { text: next, after: 1h }
        replies:
          - { match: any, send: { text: "an answer of some length, sent back for every message the client sends" } }
"""


def upgrade_request():
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET /feed HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


def masked_text(payload):
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    n = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
    return head + mask + body


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--stubd", default=".build/release/stubd")
    p.add_argument("--sockets", type=int, default=1000)
    a = p.parse_args()
    server = StubdProcess.serving(a.stubd, MANIFEST, a.sockets, prefix="stubd-ws-")
    try:
        socks = server.hold_open(a.sockets, upgrade_request, b"first",
                                 "open WebSockets (each waiting an hour for its next message)", "socket")
        for s in socks:
            s.close()
        # Clients that never read: every message is answered, and the answers pile up until the
        # server drops the client (1 MiB unsent, past what the kernel buffers). Three in a row: the
        # server's RSS must level off, not grow with each.
        time.sleep(1)
        for round in range(3):
            before = server.rss_mb()
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(upgrade_request())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            frame = masked_text(b"x" * 100)
            sent, closed = 0, False
            s.settimeout(5)
            try:
                for _ in range(400_000):
                    s.sendall(frame)
                    sent += 1
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                closed = True
            s.close()
            time.sleep(0.5)
            print(f"  a client that reads nothing (#{round + 1}): sent {sent} messages ({sent * len(frame) / 1e6:.1f} MB), "
                  f"{'dropped by the server' if closed else 'still connected'}; RSS {before:.1f} -> {server.rss_mb():.1f} MB, "
                  f"{server.threads()} threads")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
