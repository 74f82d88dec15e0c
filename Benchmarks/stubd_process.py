"""One `stubd serve` child process for the benchmarks (hardening.py, scale.py).

Its output goes to a temporary file, never a pipe: a pipe nobody drains would be the benchmark's
own doing. The port comes from the line `stubd listening on http://127.0.0.1:PORT …` (the first one, unless
notices come before it, as a loaded spec's do).
"""
import os, re, signal, subprocess, tempfile, time


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
