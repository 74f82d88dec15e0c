"""`stubd serve` of a folder and a headless Chromium (Debian's chromium + chromium-driver, through
selenium) to look at it: what dashboard_test.py and streams_test.py both start, and stop together."""
import subprocess

from browser_checks import missing_module, program, stop, wait_for

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
except ImportError as error:
    raise missing_module(error)


class StubdInChromium:
    def __init__(self, stubd, stubs, work):
        """Starts `stubd serve` of `stubs` on a free port; its output goes to `work`/serve.log (a file:
        a pipe nobody reads would block it)."""
        self.log = open(work / "serve.log", "w+")
        self.server = subprocess.Popen([stubd, "serve", "--stubs", str(stubs), "--port", "0", "--no-watch"],
                                       stdout=self.log, stderr=subprocess.STDOUT)
        self.driver = None

    def base_url(self):
        """The server's base URL once it listens, or None after printing its output when it did not start."""
        line, _ = wait_for(lambda: (self.log.seek(0), self.log.readline())[1], 30, 0.1)
        if not line or "listening on" not in line:
            self.log.seek(0)
            print("stubd did not start:\n" + self.log.read())
            return None
        return line.split("listening on ")[1].split(" ")[0]

    def open_chromium(self, *flags, browser_log=False):
        """A headless Chromium with `flags` besides the four every run needs; with `browser_log`, its
        console is kept for `driver.get_log("browser")`."""
        options = Options()
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *flags]:
            options.add_argument(flag)
        options.binary_location = program("chromium")
        if browser_log:
            options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(program("chromedriver")), options=options)
        return self.driver

    def close(self):
        """Quits the browser, stops the server."""
        if self.driver:
            self.driver.quit()
        stop(self.server)
        self.log.close()
