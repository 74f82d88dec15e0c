#!/usr/bin/env python3
"""Every shell session shown in README.md and docs/*.md, run as written (issue 37).

    python3 Tests/Docs/shell_sessions_test.py --stubd .build/release/stubd [--self-test] [--only FILE]

A ```console block is a shell session: `$ ` lines are commands, the lines after each are what it
prints. Each Markdown file's console blocks run in order in one bash session (a variable set in
one block is there in the next) against a fresh `stubd serve` of the repository's example Stubs/
folder, started by this script, in a scratch folder holding a copy of Stubs/ and Examples/. Blocks
that cannot run here (a Mac, Xcode, a real API, a second terminal) are ```sh or ```text blocks:
console means run by this test.

What a command line may say:
- `swift run stubd`, `.build/release/stubd` and a leading `stubd` run the binary given by --stubd.
- `stubd serve` (with `swift run` or not) is not run: the server this script started stands for
  it, and its first line (`stubd listening on …`) is the command's output.
- `localhost:8080` and `127.0.0.1:8080` are the started server's port; STUBD_URL points at it.

How outputs are compared, after masking both sides the same way:
- the server's real port is written 8080;
- volatile values become tokens: ISO 8601 times (`2026-11-22T22:26:39-08:00`) <time>, durations
  (`0.29ms`, `38s`) <n>ms / <n>s, `t=39` in a RateLimit header t=<n>, `Retry-After: 39`
  Retry-After: <n>;
- runs of spaces count as one (a table's columns widen with its values);
- in the expected text, a line that is only `…` stands for any number of lines, and `…` inside a
  line for any text.
A per-minute quota counts within calendar minutes, so a file's sessions start at least 15 s before
a minute ends (the script waits for the next minute when it is later than that).

It also checks that every relative link in README.md, docs/*.md and Benchmarks/RESULTS.md names a
file that exists and, for `page.md#anchor`, a heading on that page.

Prints one line per block and per broken link, then `N passed, N failed`; exits 1 on any failure.
--self-test runs everything again on a copy of the documents with one expected output edited,
and fails unless that copy fails, on that block.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = "__stubd_doc_test_end__"


def documents(root):
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))


def console_blocks(path):
    """[(line number of the fence, [(command, [expected lines])])] for each ```console block."""
    blocks, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            start, steps, i = i + 1, [], i + 1
            while i < len(lines) and lines[i].strip() != "```":
                line = lines[i]
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                elif steps:
                    steps[-1][1].append(line)
                i += 1
            blocks.append((start, [(c, strip_blank(e)) for c, e in steps]))
        i += 1
    return blocks


def strip_blank(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


# Masks: applied to expected and actual text alike, in this order.
MASKS = [
    (re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})"), "<time>"),
    (re.compile(r"\b\d+(\.\d+)?ms\b"), "<n>ms"),
    (re.compile(r"\b\d+s\b"), "<n>s"),
    (re.compile(r"\bt=\d+"), "t=<n>"),
    (re.compile(r"(?i)\bRetry-After: \d+"), "Retry-After: <n>"),
]


def mask(line, port):
    if port:
        line = line.replace(f":{port}", ":8080")
    for pattern, token in MASKS:
        line = pattern.sub(token, line)
    return re.sub(r" +", " ", line.rstrip())


def line_matches(expected, actual):
    if "…" not in expected:
        return expected == actual
    parts = [re.escape(p) for p in expected.split("…")]
    return re.fullmatch(".*?".join(parts), actual, flags=re.S) is not None


def lines_match(expected, actual):
    """Whether `actual` fits `expected`, where an `…` line takes any number of lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "…":
        return any(lines_match(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and lines_match(expected[1:], actual[1:])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_serve(command):
    return re.match(r"^(swift run stubd|\.build/\w+/stubd|stubd) serve\b", command) is not None


def shell_form(command, stubd, port):
    command = re.sub(r"^(swift run stubd|\.build/\w+/stubd|stubd)\b", stubd, command)
    command = re.sub(r"(\|\s*|&&\s*|;\s*)(swift run stubd|stubd)\b", lambda m: m.group(1) + stubd, command)
    return command.replace("localhost:8080", f"localhost:{port}").replace("127.0.0.1:8080", f"127.0.0.1:{port}")


class Server:
    def __init__(self, stubd, folder):
        self.port = free_port()
        self.log = open(os.path.join(folder, "serve.log"), "w+")
        self.process = subprocess.Popen([stubd, "serve", "--port", str(self.port), "--stubs", "./Stubs", "--no-watch"],
                                        cwd=folder, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 20
        while time.time() < deadline:
            self.log.seek(0)
            first = self.log.readline()
            if first.startswith("stubd listening on ") and first.endswith("\n"):
                self.first_line = first.rstrip("\n")
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        self.log.seek(0)
        raise RuntimeError("stubd serve did not start:\n" + self.log.read())

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Shell:
    """One bash for a whole document, so that blocks share variables as a reader's terminal would."""

    def __init__(self, folder, env):
        self.process = subprocess.Popen(["bash", "--noprofile", "--norc"], cwd=folder, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)

    def run(self, command, timeout=60):
        self.process.stdin.write(f"{command}\necho; echo {MARK}$?\n")
        self.process.stdin.flush()
        out, deadline = [], time.time() + timeout
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            if line.startswith(MARK):
                if out and out[-1] == "":
                    out.pop()  # the newline `echo` added, for output that did not end with one
                return out, int(line[len(MARK):])
            out.append(line.rstrip("\n"))
        raise RuntimeError(f"`{command}` did not finish within {timeout} s")

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def wait_for_a_fresh_minute():
    second = time.gmtime().tm_sec
    if second > 45:
        time.sleep(60 - second + 0.2)


def run_document(path, stubd, scratch, report):
    blocks = console_blocks(path)
    if not blocks:
        return
    folder = tempfile.mkdtemp(prefix="doc-", dir=scratch)
    shutil.copytree(os.path.join(ROOT, "Stubs"), os.path.join(folder, "Stubs"), symlinks=True)
    shutil.copytree(os.path.join(ROOT, "Examples"), os.path.join(folder, "Examples"), symlinks=True,
                    ignore=shutil.ignore_patterns(".build", ".swiftpm"))
    wait_for_a_fresh_minute()
    server = Server(stubd, folder)
    env = dict(os.environ, STUBD_URL=f"http://127.0.0.1:{server.port}", LC_ALL="C.UTF-8", TERM="dumb")
    env.pop("STUBD_ADMIN_TOKEN", None)
    shell = Shell(folder, env)
    name = os.path.relpath(path, report.root)
    try:
        for line, steps in blocks:
            problem = None
            for command, expected in steps:
                if is_serve(command):
                    actual = [server.first_line]
                else:
                    actual, _ = shell.run(shell_form(command, stubd, server.port))
                want = [mask(e, None) for e in expected]
                got = [mask(a, server.port) for a in actual]
                if not lines_match(want, got):
                    problem = (command, expected, actual)
                    break
            report.block(name, line, len(steps), problem)
    finally:
        shell.close()
        server.stop()


def slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"^#{1,6} ", line):
            found.add(slug(re.sub(r"^#+ ", "", line)))
    return found


def check_links(root, report):
    for path in documents(root) + [os.path.join(root, "Benchmarks", "RESULTS.md")]:
        text = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
        for match in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = match.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            name = os.path.relpath(path, root)
            if not os.path.exists(dest):
                report.link(name, target, "no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                report.link(name, target, "no such heading")


class Report:
    def __init__(self, root, quiet=False):
        self.root, self.quiet, self.passed, self.failed, self.failures = root, quiet, 0, 0, []

    def say(self, text):
        if not self.quiet:
            print(text, flush=True)

    def block(self, name, line, commands, problem):
        if problem is None:
            self.passed += 1
            self.say(f"ok    {name}:{line} ({commands} command{'s' if commands != 1 else ''})")
            return
        self.failed += 1
        self.failures.append(f"{name}:{line}")
        command, expected, actual = problem
        self.say(f"FAIL  {name}:{line}: `{command}` printed something else")
        self.say("      expected:\n" + "\n".join("        " + l for l in expected))
        self.say("      actual:\n" + "\n".join("        " + l for l in actual))

    def link(self, name, target, why):
        self.failed += 1
        self.failures.append(f"{name}: {target}")
        self.say(f"FAIL  {name}: link {target}: {why}")


def run_all(root, stubd, only=None, quiet=False):
    report = Report(root, quiet)
    scratch = tempfile.mkdtemp(prefix="stubd-doc-test-")
    try:
        for path in documents(root):
            if only and os.path.relpath(path, root) != only:
                continue
            run_document(path, stubd, scratch, report)
        check_links(root, report)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def self_test(stubd):
    """The same run on a copy whose README expects 76.5 °F to be 77.5: it must fail, on that block."""
    copy = tempfile.mkdtemp(prefix="stubd-doc-self-test-")
    try:
        for path in documents(ROOT) + [os.path.join(ROOT, "Benchmarks", "RESULTS.md")]:
            dest = os.path.join(copy, os.path.relpath(path, ROOT))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(path, dest)
        for linked in ["Stubs", "Examples", "Formula", "Tests", "scripts", "Dockerfile", "docker-compose.yml"]:
            if os.path.exists(os.path.join(ROOT, linked)):
                os.symlink(os.path.join(ROOT, linked), os.path.join(copy, linked))
        for path in glob.glob(os.path.join(ROOT, "docs", "*")):
            dest = os.path.join(copy, "docs", os.path.basename(path))
            if not os.path.exists(dest):
                os.symlink(path, dest)
        readme = os.path.join(copy, "README.md")
        text = open(readme, encoding="utf-8").read()
        edited = text.replace("jq .current_observation.temp_f\n76.5\n", "jq .current_observation.temp_f\n77.5\n", 1)
        if edited == text:
            return "self-test: README.md no longer shows `jq .current_observation.temp_f` answering 76.5; edit the self-test"
        open(readme, "w", encoding="utf-8").write(edited)
        report = run_all(copy, stubd, only="README.md", quiet=True)
        edited_block = next((f"README.md:{line}" for line, steps in console_blocks(readme)
                             if any("77.5" in e for _, expected in steps for e in expected)), None)
        if edited_block is None:
            return "self-test: the edited line is in no console block of README.md; edit the self-test"
        if edited_block not in report.failures:
            return f"self-test: with 77.5 in place of 76.5 the block {edited_block} still passed"
        return None
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stubd", required=True, help="the stubd binary, e.g. .build/release/stubd")
    parser.add_argument("--only", help="one document, e.g. README.md or docs/templates.md")
    parser.add_argument("--self-test", action="store_true", help="also check that an edited expected output fails")
    args = parser.parse_args()
    stubd = os.path.abspath(args.stubd)
    if not os.access(stubd, os.X_OK):
        print(f"{args.stubd} is not an executable stubd; build it with `swift build -c release --product stubd`")
        return 1
    report = run_all(ROOT, stubd, args.only)
    if args.self_test:
        problem = self_test(stubd)
        if problem:
            report.failed += 1
            print(f"FAIL  {problem}")
        else:
            report.passed += 1
            print("ok    self-test: an edited expected output fails its block")
    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
