/// Python for the tests that speak WebSocket over a raw socket, to send what no library would:
/// `upgrade(s, path)` sends the opening handshake, `opened(port, path)` connects and reads the 101,
/// `frames(s)` reads every frame until the server closes the connection, as `(opcode, payload)`.
/// A script starts with it: `rawWebSocketPython + #"""…"""#`.
public let rawWebSocketPython = #"""
    import base64, os, socket, struct
    def upgrade(s, path="/chat"):
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    def opened(port, path="/chat"):
        s = socket.create_connection(("127.0.0.1", port), timeout=3)
        upgrade(s, path)
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        return s
    def frames(s):
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
        out = []
        while data:
            op, n = data[0] & 0x0F, data[1] & 0x7F
            at = 2
            if n == 126: n, at = struct.unpack(">H", data[2:4])[0], 4
            out.append((op, data[at:at + n])); data = data[at + n:]
        return out

    """#
