"""Regenerates chromium.har: Chromium (driven by Playwright, which writes the HAR) loads a page from
upstream.py on localhost that calls the API on 127.0.0.1, another origin, so the HAR holds a real
browser's cross-origin fetches, a redirect it followed, a request it could not send (status -1) and
two hosts. Needs `pip install playwright` and a Chromium
(the system's /usr/bin/chromium by default; CHROMIUM=path for another); not needed to run the tests:

    python3 Tests/StubdServerTests/Fixtures/HAR/make-chromium-har.py
"""
import os, subprocess, sys
from playwright.sync_api import sync_playwright

here = os.path.dirname(os.path.abspath(__file__))
upstream = subprocess.Popen([sys.executable, os.path.join(here, "upstream.py"), "0"], stdout=subprocess.PIPE, text=True)
try:
    port = int(upstream.stdout.readline())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        context = browser.new_context(record_har_path=os.path.join(here, "chromium.har"), record_har_content="embed")
        page = context.new_page()
        page.goto(f"http://localhost:{port}/page.html")
        page.wait_for_function("document.title === 'done'", timeout=10000)
        context.close()
        browser.close()
finally:
    upstream.kill()
