#!/bin/bash
# Benchmarks/instructions.sh BINARY [REQUESTS] [CONNECTIONS]: the user-space instructions one plain
# keep-alive request costs a release stubd, counted by valgrind (callgrind), so the machine's load
# does not move it (wall-clock and CPU time swing 10-30% on this shared VM; it has no hardware
# counters for `perf stat -e instructions`). Prints, per request: the handler (libmicrohttpd's call
# into stubd, all of the request path), the request-completed callback, the log writer's thread and
# the process. The handler is the steady figure (two runs of one build agree within ~1%); the log
# writer and the total move with how its thread batches lines.
#
#   Benchmarks/instructions.sh /work/bin/stubd-66bd6c6 3000 1
#   Benchmarks/instructions.sh /work/bin/stubd-66bd6c6 3000 128   # 128 open connections, used in turn
#   STUBS=/tmp/quota REQUEST_PATH=/api/K/x.json Benchmarks/instructions.sh …   # another folder and route
#   SERVE_ARGS="--log-format json" Benchmarks/instructions.sh …   # more `serve` options
#   KEEP=/tmp/cg.out Benchmarks/instructions.sh …   # keep the callgrind file, to read with
#       callgrind_annotate --inclusive=yes /tmp/cg.out (or without --inclusive for each function's own)
#
# Valgrind 3.19 cannot read Swift's DWARF 5 (the binary is copied without debug info) and crashes on
# libdispatch's sigsuspend with a mask in read-only memory (a preloaded sigsuspend copies it).
set -euo pipefail
BIN=$1; N=${2:-3000}; C=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
STUBS=${STUBS:-$HERE/Stubs}; REQUEST_PATH=${REQUEST_PATH:-/bench/payload.json}
W=$(mktemp -d /tmp/stubd-instructions.XXXX)
trap 'kill $VP 2>/dev/null; rm -rf "$W"' EXIT
objcopy --strip-debug "$BIN" "$W/stubd"
printf '#define _GNU_SOURCE\n#include <signal.h>\n#include <unistd.h>\n#include <sys/syscall.h>\nint sigsuspend(const sigset_t *m){ sigset_t c=*m; return syscall(SYS_rt_sigsuspend,&c,8); }\n' > "$W/fix.c"
gcc -shared -fPIC -O2 -o "$W/fix.so" "$W/fix.c"
LD_PRELOAD="$W/fix.so" valgrind --tool=callgrind --callgrind-out-file="$W/cg.%p" --dump-instr=no \
    "$W/stubd" serve --stubs "$STUBS" --port 0 --no-watch --log-level info ${SERVE_ARGS:-} >"$W/out" 2>"$W/err" &
VP=$!
for _ in $(seq 1 600); do grep -q 'listening on' "$W/out" 2>/dev/null && break; sleep 0.1; done
PORT=$(grep -o 'http://127.0.0.1:[0-9]*' "$W/out" | head -1 | sed 's/.*://')
client() {
    # CONNECTIONS keep-alive connections held open and used in turn, one request at a time: every
    # request wakes the worker with all the others idle in its poll set, so what each open
    # connection costs a request shows in the count, and no thread timing decides the batching.
    python3 - "$PORT" "$1" "$C" "$REQUEST_PATH" <<'PY'
import http.client, sys
port, n, conns, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cs = [http.client.HTTPConnection("127.0.0.1", port) for _ in range(conns)]
for c in cs: c.connect()
for i in range(n):
    c = cs[i % conns]
    c.request("GET", path); r = c.getresponse(); r.read()
    assert r.status == 200, r.status
PY
}
client 200                     # warm: first-use work is not counted
callgrind_control -z $VP >/dev/null 2>&1
client "$N"
callgrind_control -d $VP >/dev/null 2>&1
sleep 0.5
kill $VP; wait $VP 2>/dev/null || true
[ -n "${KEEP:-}" ] && cp "$(ls "$W"/cg.*.1 | head -1)" "$KEEP"
callgrind_annotate --inclusive=yes --threshold=100 "$(ls "$W"/cg.*.1 | head -1)" 2>/dev/null | python3 -c "
import re, sys
want = {'handler': 'DaemonCallbacksO13accessHandler', 'reused response': 'ConnectionStateC7variant', 'completed': 'DaemonCallbacksO16requestCompleted',
        'log writer': 'LogWriterC3run', 'process': 'PROGRAM TOTALS'}
got = {}
for line in sys.stdin:
    m = re.match(r'\s*([\d,]+) \(.*?\)\s+(.*)', line)
    for k, v in want.items():
        if m and k not in got and v in m.group(2): got[k] = int(m.group(1).replace(',', '')) / $N
print('$(basename "$BIN")', ', '.join(f'{k} {got.get(k, 0):,.0f}' for k in want), 'instructions per request')
"
