#!/usr/bin/env python3
"""Benchmarks/har_import.py: `stubd import har` of a large HAR, read an entry at a time (issue 43).

    python3 Benchmarks/har_import.py            # about 1 GB
    SIZE_MB=200 python3 Benchmarks/har_import.py

Writes a HAR of SIZE_MB megabytes into a temporary folder (nothing is kept): ENTRIES answers of
BODY_KB KiB of binary (base64 in the HAR, as browsers write images), a share of them to DISTINCT
paths and the rest repeating one request with one answer (so the folder stays small: what is
measured is the reading, not the writing). Runs `/usr/bin/time -v stubd import har` and prints the
HAR's size, the wall time and the peak resident memory; the peak must not follow the file.

Environment: STUBD_BIN (default .build/debug/stubd), SIZE_MB (1024), BODY_KB (512), DISTINCT (64).
"""
import base64, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STUBD_BIN", os.path.join(ROOT, ".build/debug/stubd"))
SIZE_MB = int(os.environ.get("SIZE_MB", "1024"))
BODY_KB = int(os.environ.get("BODY_KB", "512"))
DISTINCT = int(os.environ.get("DISTINCT", "64"))


def write_har(path):
    body = bytes((i * 2654435761 >> 7) & 0xFF for i in range(BODY_KB * 1024))
    entries = SIZE_MB * 1024 * 1024 // (len(body) * 4 // 3 + 900)
    with open(path, "w") as f:
        f.write('{"log": {"version": "1.2", "creator": {"name": "har_import.py", "version": "1"}, "pages": [], "entries": [\n')
        for i in range(entries):
            n = i if i < DISTINCT else DISTINCT
            data = body if i >= DISTINCT else bytes([i & 0xFF]) + body[1:]
            if i:
                f.write(",\n")
            f.write('  {"startedDateTime": "2026-11-27T08:00:00Z", "time": 1, "request": {"method": "GET", '
                    f'"url": "http://127.0.0.1:8000/images/{n}.png", "httpVersion": "HTTP/1.1", '
                    '"headers": [{"name": "Accept", "value": "image/*"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, '
                    '"response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", '
                    '"headers": [{"name": "Content-Type", "value": "image/png"}], "cookies": [], '
                    f'"content": {{"size": {len(data)}, "mimeType": "image/png", "encoding": "base64", "text": "{base64.b64encode(data).decode()}"}}, '
                    f'"redirectURL": "", "headersSize": -1, "bodySize": {len(data)}}}, "cache": {{}}, "timings": {{"send": 0, "wait": 1, "receive": 0}}}}')
        f.write("\n]}}\n")
    return entries


def main():
    work = tempfile.mkdtemp(prefix="stubd-har-bench-")
    try:
        har = os.path.join(work, "big.har")
        entries = write_har(har)
        size = os.path.getsize(har)
        result = subprocess.run(["/usr/bin/time", "-v", BIN, "import", "har", har, "--stubs", os.path.join(work, "Stubs")],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"import failed:\n{result.stdout}\n{result.stderr}")
        summary = [l for l in result.stdout.splitlines() if l.startswith("imported ")]
        peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1))
        wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", result.stderr).group(1)
        print(f"HAR {size / 1e6:.0f} MB, {entries} entries of {BODY_KB} KiB ({DISTINCT} distinct requests): "
              f"wall {wall}, peak RSS {peak_kb / 1024:.0f} MiB ({peak_kb * 1024 / size:.3f}x the file)")
        print(summary[0] if summary else result.stdout[-400:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
