"""One `stubd serve` child process for the benchmarks (hardening.py, scale.py, …), and the
held-connections measure that sse_streams.py and websocket_sockets.py share.

Its output goes to a temporary file, never a pipe: a pipe nobody drains would be the benchmark's
own doing. The port comes from the line `stubd listening on http://127.0.0.1:PORT …` (the first one, unless
notices come before it, as a loaded spec's do).
"""
import os, re, resource, signal, socket, subprocess, tempfile, time


class StubdProcess:
    def __init__(self, binary, stubs, *flags, level="warning"):
        self.log = tempfile.NamedTemporaryFile(prefix="stubd-bench-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([binary, "serve", "--stubs", stubs, "--port", "0", "--log-level", level, *flags],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            with open(self.log.name) as f:
                m = re.search(r"^stubd listening on http://127\.0\.0\.1:(\d+)", f.read(), re.M)
            if m:
                self.port = int(m.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        log = open(self.log.name).read()
        self.stop()
        raise SystemExit("stubd did not start: " + log)

    @property
    def url(self):
        """The base URL: `server.url + "/path"`."""
        return f"http://127.0.0.1:{self.port}"

    def rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(next(l for l in f if l.startswith("VmRSS")).split()[1]) / 1024

    def threads(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(next(l for l in f if l.startswith("Threads")).split()[1])

    @classmethod
    def serving(cls, binary, manifest, connections, prefix="stubd-bench-"):
        """A server on a fresh folder holding `manifest` as stubd.yml, allowed `connections` open at
        once, with this process's open-file limit raised to hold as many sockets."""
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, connections + 256)), hard))
        stubs = tempfile.mkdtemp(prefix=prefix)
        with open(os.path.join(stubs, "stubd.yml"), "w") as f:
            f.write(manifest)
        return cls(binary, stubs, "--max-connections", str(connections + 50))

    def hold_open(self, count, request, first, what, unit):
        """Opens `count` connections, each sending `request` (bytes, or a function of nothing that
        returns them), waits until each has received `first`, and prints the server's RSS and threads
        before and while they are held. Returns the open sockets: the caller closes them."""
        idle = (self.rss_mb(), self.threads())
        socks, started = [], time.time()
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", self.port))
            s.sendall(request() if callable(request) else request)
            socks.append(s)
        for s in socks:
            s.settimeout(10)
            got = b""
            while first not in got:
                chunk = s.recv(4096)
                if not chunk:
                    raise SystemExit(f"a {unit} closed early: " + got.decode(errors="replace"))
                got += chunk
        opened = time.time() - started
        time.sleep(1)
        held = (self.rss_mb(), self.threads())
        print(f"{count} {what}, opened in {opened:.2f} s")
        print(f"  idle:  RSS {idle[0]:.1f} MB, {idle[1]} threads")
        print(f"  held:  RSS {held[0]:.1f} MB, {held[1]} threads "
              f"({(held[0] - idle[0]) * 1024 / count:.1f} KB per {unit})")
        return socks

    def stop(self):
        """SIGTERM; returns (seconds to exit, exit code)."""
        start = time.time()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        os.unlink(self.log.name)
        return time.time() - start, code
