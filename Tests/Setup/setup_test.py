#!/usr/bin/env python3
"""The README's first command installs only what serving needs (issue 62, item 8).

On a fresh machine the first command waited 212 s for the browsers and test tools it did not need
to serve. `scripts/setup --serve` now installs the server's packages only, and the test command's
first run installs the rest. This test reads the one list through `scripts/setup --list [--serve]`
(installing nothing) and checks:

- the serving part holds what Package.swift's system libraries need, and none of the test tools;
- the whole list holds the serving part and the test tools (still one list, in one script);
- the README's first command runs `scripts/setup --serve`, and scripts/test runs `scripts/setup` whole.

    python3 Tests/Setup/setup_test.py
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = {"pkg-config", "libmicrohttpd-dev", "libgnutls28-dev", "libcurl4-openssl-dev"}
TEST_TOOLS = {"chromium", "chromium-driver", "firefox-esr", "nginx", "docker-compose", "python3-venv"}


def listed(*flags):
    run = subprocess.run([str(ROOT / "scripts/setup"), "--list", *flags], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        sys.exit(f"scripts/setup --list {' '.join(flags)} exited {run.returncode}: {run.stderr.strip()}")
    return set(run.stdout.split())


def main():
    problems = []
    serve, whole = listed("--serve"), listed()
    if serve != SERVER:
        problems.append(f"scripts/setup --serve installs {sorted(serve)}; serving needs exactly {sorted(SERVER)}")
    if serve & TEST_TOOLS:
        problems.append(f"the first command would wait for test tools: {sorted(serve & TEST_TOOLS)}")
    if not serve <= whole:
        problems.append(f"the whole list lacks serving's {sorted(serve - whole)}")
    if not TEST_TOOLS <= whole:
        problems.append(f"the whole list lacks the test tools {sorted(TEST_TOOLS - whole)}")
    readme = (ROOT / "README.md").read_text()
    first = re.search(r"```sh\n(.*)\n", readme)
    if not first or not first.group(1).startswith("scripts/setup --serve && "):
        problems.append(f"the README's first command is {first.group(1) if first else None!r}, not `scripts/setup --serve && …`")
    elif "--disable-default-traits" not in first.group(1):
        # With every trait a first build on a fresh 2-vCPU machine took over 335 s (swift-crypto,
        # swift-certificates, OpenAPIKit), against the 180; the example folder needs neither.
        problems.append("the README's first command builds every trait (add --disable-default-traits: HTTPS and OpenAPI are most of a first build)")
    test_script = (ROOT / "scripts/test").read_text()
    if not re.search(r"^scripts/setup\s*$", test_script, re.M):
        problems.append("scripts/test does not run `scripts/setup` (the whole list) before its tests")
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        sys.exit(1)
    print(f"setup: serving needs {len(serve)} packages, the tests {len(whole - serve)} more; README and scripts/test agree")


if __name__ == "__main__":
    main()
