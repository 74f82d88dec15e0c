"""One nginx serving a folder on a free loopback port, the peer the benchmarks measure stubd against.

Its config is Benchmarks/nginx.conf.template (2 workers, sendfile, open_file_cache, access_log off,
keep-alive without a request limit); everything it writes lives in a temporary folder.
`access_log=True` turns nginx's access log on, as a user would to compare with stubd's default log
line: the `combined` format into access.log in that folder, buffered (64 KiB, flushed each second),
nginx's usual setting for a busy server.
"""
import os, shutil, signal, socket, subprocess, tempfile, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


class NginxProcess:
    def __init__(self, root, probe_path, access_log=False):
        self.prefix = tempfile.mkdtemp(prefix="stubd-bench-nginx-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        with open(os.path.join(HERE, "nginx.conf.template")) as f:
            conf = f.read()
        self.access_log = os.path.join(self.prefix, "access.log") if access_log else None
        for name, value in {"USER_DIRECTIVE": "user root root;" if os.geteuid() == 0 else "",
                            "ACCESS_LOG": f"{self.access_log} combined buffer=64k flush=1s" if access_log else "off",
                            "PREFIX": self.prefix, "PORT": str(self.port), "ROOT": os.path.abspath(root)}.items():
            conf = conf.replace(f"@{name}@", value)
        with open(os.path.join(self.prefix, "nginx.conf"), "w") as f:
            f.write(conf)
        self.proc = subprocess.Popen(["nginx", "-p", self.prefix + "/", "-c", os.path.join(self.prefix, "nginx.conf"),
                                      "-e", os.path.join(self.prefix, "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 5
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + probe_path, timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit("nginx did not answer 200 for " + probe_path)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)
