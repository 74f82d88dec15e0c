#!/usr/bin/env bash
# Benchmarks/run.sh: stubd against nginx, measured in the same run on the same machine.
#
#   swift build -c release && Benchmarks/run.sh
#
# Environment (all optional):
#   STUBD_BIN      stubd binary                       (default: <repo>/.build/release/stubd)
#   STUBS_DIR      stubs dir, also nginx's root       (default: <repo>/Stubs)
#   DURATION       wrk duration per measured run      (default: 5s)
#   ROUNDS         measured rounds per target         (default: 3)
#   CONNECTIONS    wrk connections                    (default: 32)
#   THREADS        wrk threads                        (default: 2)
#   QUOTA_ROUNDS   rounds of the quota'd/plain pair   (default: 9; the two differ by less than the
#                  VM's run-to-run noise, so this comparison takes more, shorter rounds)
#   QUOTA_DURATION wrk duration per quota/plain run   (default: 3s)
#   QUOTA_PATH     stubd route with a quota           (default: /bench/quota/payload.json)
#   PLAIN_PATH     same route without a quota         (default: /bench/payload.json)
#   KEEPALIVE_REQUESTS  sequential requests on one connection (default: 200)
#   STARTUP_RUNS   start-to-first-answer runs         (default: 5)
#   SAVE_RESULTS   1 = keep raw wrk output and the summary under RESULTS_DIR (default: 1)
#   RESULTS_DIR    (default: <repo>/Benchmarks/results, gitignored)
#
# The payload is $STUBS_DIR/bench/payload.json. Every target is on 127.0.0.1.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(dirname "$BENCH_DIR")

STUBD_BIN=${STUBD_BIN:-$REPO_ROOT/.build/release/stubd}
STUBS_DIR=${STUBS_DIR:-$REPO_ROOT/Stubs}
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
QUOTA_ROUNDS=${QUOTA_ROUNDS:-9}
QUOTA_DURATION=${QUOTA_DURATION:-3s}
QUOTA_PATH=${QUOTA_PATH:-/bench/quota/payload.json}
PLAIN_PATH=${PLAIN_PATH:-/bench/payload.json}
KEEPALIVE_REQUESTS=${KEEPALIVE_REQUESTS:-200}
STARTUP_RUNS=${STARTUP_RUNS:-5}
SAVE_RESULTS=${SAVE_RESULTS:-1}
RESULTS_DIR=${RESULTS_DIR:-$BENCH_DIR/results}

PAYLOAD_PATH=/bench/payload.json
LISTEN_TIMEOUT_US=10000000 # 10 s for stubd's "listening" line
NGINX_TIMEOUT_US=5000000   # 5 s for nginx to answer

# ---------------------------------------------------------------------------------------------
# helpers

die() {
    printf 'run.sh: error: %s\n' "$*" >&2
    exit 1
}

say() { printf '%s\n' "$*"; }

WARNINGS=()
warn() {
    WARNINGS+=("$*")
    printf 'run.sh: warning: %s\n' "$*" >&2
}

# NOW_US = wall clock in microseconds, without forking (bash 5 EPOCHREALTIME; date as a fallback).
now_us() {
    if [[ -n ${EPOCHREALTIME:-} ]]; then
        NOW_US=${EPOCHREALTIME/[.,]/}
    else
        NOW_US=$(date +%s%6N)
    fi
}

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# wrk duration ("5s", "2m", "1h", "10") to whole seconds, used only to bound wrk with timeout(1).
duration_seconds() {
    local d=$1 n unit
    [[ $d =~ ^([0-9]+)([smhSMH]?)$ ]] || die "DURATION must look like 5s, 2m or 1h (got '$d')"
    n=${BASH_REMATCH[1]}
    unit=${BASH_REMATCH[2],,}
    case $unit in
        m) echo $((n * 60)) ;;
        h) echo $((n * 3600)) ;;
        *) echo "$n" ;;
    esac
}

# median of the arguments (numbers); "nan" when there are none
median() {
    if (($# == 0)); then
        echo nan
        return
    fi
    printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 }
        END { if (NR % 2) m = a[(NR + 1) / 2]; else m = (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f\n", m }'
}

# microseconds -> "0.20 ms"
fmt_ms() {
    awk -v v="$1" 'BEGIN { if (v == "nan" || v == "") print "n/a"; else printf "%.2f ms\n", v / 1000 }'
}

fmt_int() {
    awk -v v="$1" 'BEGIN { if (v == "nan" || v == "") print "n/a"; else printf "%.0f\n", v }'
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b + 0 == 0) print "n/a"; else printf "%.2f\n", a / b }'
}

http_code() {
    curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$1" 2>/dev/null || true
}

# stop a background process by PID: the given signal, up to 5 s, then SIGKILL
stop_pid() {
    local pid=$1 sig=$2 i
    [[ -n $pid ]] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        kill -"$sig" "$pid" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    wait "$pid" 2>/dev/null || true
}

# ---------------------------------------------------------------------------------------------
# preflight

missing=()
for tool in wrk nginx curl python3 awk sort timeout; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    printf 'run.sh: error: missing tool(s): %s\n' "${missing[*]}" >&2
    printf 'install them with:\n  apt-get install -y wrk nginx-light curl python3\n' >&2
    exit 1
fi

for v in ROUNDS CONNECTIONS THREADS KEEPALIVE_REQUESTS STARTUP_RUNS; do
    if ! is_uint "${!v}" || ((10#${!v} == 0)); then die "$v must be a positive integer (got '${!v}')"; fi
done
((CONNECTIONS >= THREADS)) || die "CONNECTIONS ($CONNECTIONS) must be >= THREADS ($THREADS) for wrk"
DURATION_S=$(duration_seconds "$DURATION")
((DURATION_S > 0)) || die "DURATION must be at least 1s"
WRK_TIMEOUT_S=$((DURATION_S * 3 + 30))

[[ -x $STUBD_BIN && ! -d $STUBD_BIN ]] ||
    die "stubd binary not found or not executable: $STUBD_BIN (build it with: swift build -c release, or set STUBD_BIN)"
[[ -d $STUBS_DIR ]] || die "stubs dir not found: $STUBS_DIR (set STUBS_DIR)"
STUBS_ROOT=$(cd "$STUBS_DIR" && pwd -P)
[[ -f $STUBS_ROOT$PAYLOAD_PATH ]] || die "payload not found: $STUBS_DIR$PAYLOAD_PATH"
PAYLOAD_BYTES=$(wc -c <"$STUBS_ROOT$PAYLOAD_PATH" | tr -d ' ')
[[ -f $BENCH_DIR/nginx.conf.template ]] || die "missing $BENCH_DIR/nginx.conf.template"

# stubd's first stdout line goes to a file: force line buffering in case it is not flushed.
LINEBUF=()
if command -v stdbuf >/dev/null 2>&1; then LINEBUF=(stdbuf -oL); fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/stubd-bench.XXXXXX")
STUBD_PID=""
NGINX_PID=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    stop_pid "$STUBD_PID" TERM
    STUBD_PID=""
    stop_pid "$NGINX_PID" QUIT # graceful stop of the nginx master (it stops its workers)
    NGINX_PID=""
    rm -rf "$TMP"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

OUT_DIR=""
if [[ $SAVE_RESULTS == 1 ]]; then
    OUT_DIR=$RESULTS_DIR/$(date +%Y%m%d-%H%M%S)
    mkdir -p "$OUT_DIR"
fi
# where raw wrk output goes (a temp file when results are not kept)
raw_path() {
    if [[ -n $OUT_DIR ]]; then echo "$OUT_DIR/$1"; else echo "$TMP/$1"; fi
}

# ---------------------------------------------------------------------------------------------
# stubd

# Launch stubd in the background; stdout to $1, stderr to $2. Sets LAUNCHED_PID.
launch_stubd() {
    "${LINEBUF[@]}" "$STUBD_BIN" serve --stubs "$STUBS_DIR" --port 0 --no-watch --log-level warning \
        >"$1" 2>"$2" &
    LAUNCHED_PID=$!
}

LISTEN_RE='^stubd listening on http://(\[[^]]*\]|[^ :/]+):([0-9]+) \([0-9]+ routes? from .*\)$'

# Try once to read the first stdout line from $1. Sets LISTEN_URL and returns 0 when it is there.
# Dies when the first line is there but has the wrong shape.
try_listen_url() {
    local line host port
    LISTEN_URL=""
    [[ -s $1 ]] || return 1
    IFS= read -r line <"$1" || return 1 # no full line yet
    line=${line%$'\r'}
    [[ $line =~ $LISTEN_RE ]] ||
        die "stubd's first stdout line is not 'stubd listening on http://HOST:PORT (N routes from DIR)': '$line'"
    host=${BASH_REMATCH[1]}
    port=${BASH_REMATCH[2]}
    case $host in
        127.* | localhost | 0.0.0.0 | '[::]') ;;
        *) die "stubd listens on $host, not on the loopback; this benchmark only targets 127.0.0.1" ;;
    esac
    LISTEN_URL=http://127.0.0.1:$port
}

# Wait (10 s at most) for the listening line of the stubd process $2 writing to $1. Sets LISTEN_URL.
wait_listen_url() {
    local out=$1 pid=$2 err=$3 t0
    now_us
    t0=$NOW_US
    while :; do
        if try_listen_url "$out"; then return 0; fi
        if ! kill -0 "$pid" 2>/dev/null; then
            printf 'stubd exited before listening; its stderr:\n' >&2
            tail -n 20 "$err" >&2 || true
            die "stubd did not start ($STUBD_BIN)"
        fi
        now_us
        ((NOW_US - t0 < LISTEN_TIMEOUT_US)) ||
            die "no 'stubd listening on ...' line on stdout within 10 s (is stdout flushed after it?)"
        sleep 0.01
    done
}

# ---------------------------------------------------------------------------------------------
# nginx

free_port() {
    python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }

render_nginx_conf() {
    local prefix=$1 port=$2 user_directive=""
    if ((EUID == 0)); then user_directive="user root;"; fi
    sed -e "s|@USER_DIRECTIVE@|$(sed_escape "$user_directive")|g" \
        -e "s|@PREFIX@|$(sed_escape "$prefix")|g" \
        -e "s|@PORT@|$port|g" \
        -e "s|@ROOT@|$(sed_escape "$STUBS_ROOT")|g" \
        "$BENCH_DIR/nginx.conf.template" >"$prefix/nginx.conf"
}

# Start nginx on a free loopback port (3 tries against port races). Sets NGINX_PID and NGINX_URL.
start_nginx() {
    local ngx=$TMP/nginx attempt port t0 code
    mkdir -p "$ngx"
    for ((attempt = 1; attempt <= 3; attempt++)); do
        port=$(free_port)
        render_nginx_conf "$ngx" "$port"
        : >"$ngx/error.log"
        if ! nginx -t -q -p "$ngx/" -c "$ngx/nginx.conf" -e "$ngx/error.log" >"$ngx/test.log" 2>&1; then
            cat "$ngx/test.log" >&2
            die "nginx rejected the generated config ($ngx/nginx.conf)"
        fi
        nginx -p "$ngx/" -c "$ngx/nginx.conf" -e "$ngx/error.log" >"$ngx/stdout.log" 2>&1 &
        NGINX_PID=$!
        now_us
        t0=$NOW_US
        while kill -0 "$NGINX_PID" 2>/dev/null; do
            code=$(http_code "http://127.0.0.1:$port$PAYLOAD_PATH")
            if [[ $code == 200 ]]; then
                NGINX_URL=http://127.0.0.1:$port
                return 0
            fi
            now_us
            ((NOW_US - t0 < NGINX_TIMEOUT_US)) || break
            sleep 0.05
        done
        stop_pid "$NGINX_PID" QUIT
        NGINX_PID=""
        if ! grep -q 'Address already in use' "$ngx/error.log" "$ngx/stdout.log" 2>/dev/null; then break; fi
    done
    tail -n 20 "$ngx/error.log" "$ngx/stdout.log" >&2 || true
    die "nginx did not answer 200 for $PAYLOAD_PATH on 127.0.0.1"
}

# ---------------------------------------------------------------------------------------------
# wrk

# run_wrk URL DURATION RAWFILE: sets W_RPS, W_P50_US, W_P99_US, W_NON2XX, W_SOCKERR
run_wrk() {
    local url=$1 dur=$2 raw=$3 parsed
    if ! timeout -s INT "$WRK_TIMEOUT_S" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$dur" --latency "$url" >"$raw" 2>&1; then
        cat "$raw" >&2
        die "wrk failed against $url"
    fi
    parsed=$(awk '
        function us(v,   n, u) {
            n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
            if (u == "us") return n
            if (u == "ms") return n * 1000
            if (u == "s")  return n * 1000000
            if (u == "m")  return n * 60000000
            if (u == "h")  return n * 3600000000
            return ""
        }
        /^Requests\/sec:/            { rps = $2 }
        $1 == "50%"                  { p50 = us($2) }
        $1 == "99%"                  { p99 = us($2) }
        /Non-2xx or 3xx responses:/  { non2xx = $NF }
        /Socket errors:/             { line = $0; gsub(/,/, "", line); split(line, f, " ")
                                       sock = f[4] + f[6] + f[8] + f[10] }
        END { printf "%s %s %s %d %d\n", (rps == "" ? "-" : rps), (p50 == "" ? "-" : p50),
                     (p99 == "" ? "-" : p99), non2xx, sock }' "$raw")
    read -r W_RPS W_P50_US W_P99_US W_NON2XX W_SOCKERR <<<"$parsed"
    if [[ $W_RPS == - || $W_P50_US == - || $W_P99_US == - ]]; then
        cat "$raw" >&2
        die "could not parse Requests/sec and the 50%/99% latency lines of wrk's output ($url)"
    fi
}

# measure NAME URL ROUND: one measured wrk run, appended to the arrays RPS_<NAME>, P50_<NAME>, P99_<NAME>
measure() { # measure NAME URL ROUND [ROUNDS DURATION]
    local name=$1 url=$2 round=$3 rounds=${4:-$ROUNDS} duration=${5:-$DURATION} extra=""
    local -n rps_list=RPS_$name p50_list=P50_$name p99_list=P99_$name
    run_wrk "$url" "$duration" "$(raw_path "wrk-$name-round$round.txt")"
    rps_list+=("$W_RPS")
    p50_list+=("$W_P50_US")
    p99_list+=("$W_P99_US")
    if ((W_NON2XX > 0)); then
        extra+="  non-2xx: $W_NON2XX"
        warn "$name round $round: $W_NON2XX non-2xx/3xx responses (wrk still counts them in req/s)"
    fi
    if ((W_SOCKERR > 0)); then extra+="  socket errors: $W_SOCKERR"; fi
    printf '  round %d/%d  %-6s %10s req/s   p50 %-10s p99 %s%s\n' "$round" "$rounds" "$name" \
        "$(fmt_int "$W_RPS")" "$(fmt_ms "$W_P50_US")" "$(fmt_ms "$W_P99_US")" "$extra"
}

# ---------------------------------------------------------------------------------------------
# keep-alive: N sequential requests on one connection, curl with N URLs on one command line.
# keepalive NAME URL: sets KA_SECS, KA_OK, KA_CONNECTS
keepalive() {
    local name=$1 url=$2 args=() i t0 t1 out
    for ((i = 0; i < KEEPALIVE_REQUESTS; i++)); do args+=(-o /dev/null "$url"); done
    t0=$(date +%s.%N)
    out=$(timeout 120 curl -s --max-time 10 -w '%{http_code} %{num_connects}\n' "${args[@]}" || true)
    t1=$(date +%s.%N)
    KA_SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }')
    KA_OK=$(awk '$1 == 200 { n++ } END { print n + 0 }' <<<"$out")
    KA_CONNECTS=$(awk '{ n += $2 } END { print n + 0 }' <<<"$out")
    printf '  %-6s %d requests in %s s (%d answered 200, %d TCP connection(s))\n' \
        "$name" "$KEEPALIVE_REQUESTS" "$KA_SECS" "$KA_OK" "$KA_CONNECTS"
    if ((KA_OK != KEEPALIVE_REQUESTS)); then warn "keep-alive $name: only $KA_OK of $KEEPALIVE_REQUESTS requests answered 200"; fi
    if ((KA_CONNECTS > 1)); then warn "keep-alive $name: curl opened $KA_CONNECTS connections (connection not kept alive)"; fi
}

# ---------------------------------------------------------------------------------------------
# run

say "stubd benchmark: $(nproc) CPU(s), $(nginx -v 2>&1 | sed 's/^nginx version: //'), wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, $ROUNDS round(s)"
say "  stubd: $STUBD_BIN"
say "  stubs: $STUBS_ROOT (payload $PAYLOAD_BYTES bytes)"

launch_stubd "$TMP/stubd.out" "$TMP/stubd.err"
STUBD_PID=$LAUNCHED_PID
wait_listen_url "$TMP/stubd.out" "$STUBD_PID" "$TMP/stubd.err"
STUBD_URL=$LISTEN_URL
start_nginx
say "  stubd at $STUBD_URL (pid $STUBD_PID), nginx at $NGINX_URL (pid $NGINX_PID)"

# same answer from both?
for pair in "stubd $STUBD_URL" "nginx $NGINX_URL"; do
    read -r name base <<<"$pair"
    info=$(curl -s -o /dev/null --max-time 3 -w '%{http_code} %{size_download} %{content_type}' "$base$PAYLOAD_PATH" || true)
    read -r code size ctype <<<"$info"
    [[ $code == 200 ]] || die "$name answered '$code' for GET $PAYLOAD_PATH (expected 200)"
    if [[ $size != "$PAYLOAD_BYTES" ]]; then warn "$name sent $size body bytes for $PAYLOAD_PATH, the file has $PAYLOAD_BYTES"; fi
    say "  $name GET $PAYLOAD_PATH -> $code, $size bytes, ${ctype:-no content-type}"
done

say ""
say "warm-up (1s each)"
run_wrk "$STUBD_URL$PAYLOAD_PATH" 1s "$TMP/warmup-stubd.txt"
run_wrk "$NGINX_URL$PAYLOAD_PATH" 1s "$TMP/warmup-nginx.txt"

# per-target lists, filled by measure() and read by row() through namerefs
# shellcheck disable=SC2034
RPS_stubd=() P50_stubd=() P99_stubd=()
# shellcheck disable=SC2034
RPS_nginx=() P50_nginx=() P99_nginx=()
say "stubd vs nginx, GET $PAYLOAD_PATH, interleaved"
for ((r = 1; r <= ROUNDS; r++)); do
    measure stubd "$STUBD_URL$PAYLOAD_PATH" "$r"
    measure nginx "$NGINX_URL$PAYLOAD_PATH" "$r"
done

# quota'd route vs the same route without a quota (stubd only)
# shellcheck disable=SC2034
RPS_quota=() P50_quota=() P99_quota=()
# shellcheck disable=SC2034
RPS_plain=() P50_plain=() P99_plain=()
QUOTA_NOTE=""
quota_code=$(http_code "$STUBD_URL$QUOTA_PATH")
plain_code=$(http_code "$STUBD_URL$PLAIN_PATH")
say ""
if [[ $quota_code == 000 || $quota_code == 404 ]]; then
    QUOTA_NOTE="skipped: GET $QUOTA_PATH answered $quota_code (add a quota'd route to measure it)"
    say "quota'd route: $QUOTA_NOTE"
elif [[ $plain_code != 2* ]]; then
    QUOTA_NOTE="skipped: GET $PLAIN_PATH answered $plain_code"
    say "quota'd route: $QUOTA_NOTE"
else
    if [[ $quota_code != 2* ]]; then warn "GET $QUOTA_PATH answered $quota_code before the run (quota already spent?)"; fi
    say "quota'd vs plain route on stubd, interleaved (quota: $QUOTA_PATH, plain: $PLAIN_PATH)"
    run_wrk "$STUBD_URL$QUOTA_PATH" 1s "$TMP/warmup-quota.txt"
    for ((r = 1; r <= QUOTA_ROUNDS; r++)); do
        measure quota "$STUBD_URL$QUOTA_PATH" "$r" "$QUOTA_ROUNDS" "$QUOTA_DURATION"
        measure plain "$STUBD_URL$PLAIN_PATH" "$r" "$QUOTA_ROUNDS" "$QUOTA_DURATION"
    done
fi

say ""
say "$KEEPALIVE_REQUESTS sequential requests over one keep-alive connection"
keepalive stubd "$STUBD_URL$PAYLOAD_PATH"
KA_STUBD=$KA_SECS
keepalive nginx "$NGINX_URL$PAYLOAD_PATH"
KA_NGINX=$KA_SECS

# stop both servers before the start-up runs
stop_pid "$STUBD_PID" TERM
STUBD_PID=""
stop_pid "$NGINX_PID" QUIT
NGINX_PID=""

# start to first answer: clock starts before the launch; poll /__stubd/health until 200
say ""
say "start to first answer ($STARTUP_RUNS runs: launch, read the listening line, poll /__stubd/health until 200)"
STARTUP_MS=()
STARTUP_NOTE=""
for ((r = 1; r <= STARTUP_RUNS; r++)); do
    out=$TMP/startup-$r.out
    err=$TMP/startup-$r.err
    now_us
    t0=$NOW_US
    launch_stubd "$out" "$err"
    STUBD_PID=$LAUNCHED_PID
    url="" code="" ok=0
    while :; do
        now_us
        ((NOW_US - t0 < LISTEN_TIMEOUT_US)) || break
        if [[ -z $url ]]; then
            if try_listen_url "$out"; then
                url=$LISTEN_URL
            elif ! kill -0 "$STUBD_PID" 2>/dev/null; then
                break
            else
                sleep 0.001
                continue
            fi
        fi
        code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$url/__stubd/health" 2>/dev/null || true)
        if [[ $code == 200 ]]; then
            ok=1
            break
        fi
        if [[ $code == 404 ]]; then break; fi # up, but no health route: polling longer will not help
    done
    now_us
    t1=$NOW_US
    stop_pid "$STUBD_PID" TERM
    STUBD_PID=""
    if ((ok)); then
        ms=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f\n", d / 1000 }')
        STARTUP_MS+=("$ms")
        say "  run $r: $ms ms"
    else
        if [[ -z $url ]]; then
            STARTUP_NOTE="no listening line within 10 s"
            tail -n 5 "$err" >&2 || true
        else
            STARTUP_NOTE="GET $url/__stubd/health did not answer 200 within 10 s (last: ${code:-none})"
        fi
        warn "start-up run $r: $STARTUP_NOTE; skipping the remaining start-up runs"
        break
    fi
done

# ---------------------------------------------------------------------------------------------
# summary

m_rps_stubd=$(median "${RPS_stubd[@]}")
m_rps_nginx=$(median "${RPS_nginx[@]}")

# pair_ratio A B: the median of A[i]/B[i], each pair measured back to back (less exposed to the
# VM's drift than the ratio of the two medians).
pair_ratio() {
    local -n pa=$1 pb=$2
    local i ratios=()
    for ((i = 0; i < ${#pa[@]} && i < ${#pb[@]}; i++)); do
        ratios+=("$(awk -v a="${pa[i]}" -v b="${pb[i]}" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')")
    done
    awk -v v="$(median "${ratios[@]}")" 'BEGIN { printf "%.2f", v }'
}

row() { # row LABEL NAME
    local -n row_rps=RPS_$2 row_p50=P50_$2 row_p99=P99_$2
    local rps p50 p99
    rps=$(median "${row_rps[@]}")
    p50=$(median "${row_p50[@]}")
    p99=$(median "${row_p99[@]}")
    printf '| %s | %s | %s | %s |\n' "$1" "$(fmt_int "$rps")" "$(fmt_ms "$p50")" "$(fmt_ms "$p99")"
}

summary() {
    say "## stubd vs nginx ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
    say ""
    say "$(nproc) CPU(s), $(uname -sr), $(nginx -v 2>&1 | sed 's/^nginx version: //'), wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, payload $PAYLOAD_BYTES bytes"
    say ""
    say "| target | req/s (median) | p50 | p99 |"
    say "|---|---:|---:|---:|"
    row "stubd  GET $PAYLOAD_PATH" stubd
    row "nginx  same file" nginx
    if ((${#RPS_quota[@]})); then
        row "stubd  GET $QUOTA_PATH (quota)" quota
        row "stubd  GET $PLAIN_PATH (no quota)" plain
    fi
    say ""
    say "p50/p99: median over the rounds of wrk's --latency percentiles."
    say "ratio stubd/nginx: $(ratio "$m_rps_stubd" "$m_rps_nginx") (medians); $(pair_ratio RPS_stubd RPS_nginx) (median of the $ROUNDS per-round ratios)"
    if ((${#RPS_quota[@]})); then
        say "quota'd / plain route: $(ratio "$(median "${RPS_quota[@]}")" "$(median "${RPS_plain[@]}")") (medians); $(pair_ratio RPS_quota RPS_plain) (median of the $QUOTA_ROUNDS per-round ratios; $QUOTA_DURATION runs)"
    else
        say "quota'd / plain route: $QUOTA_NOTE"
    fi
    say "$KEEPALIVE_REQUESTS sequential keep-alive requests: stubd $KA_STUBD s, nginx $KA_NGINX s"
    if ((${#STARTUP_MS[@]})); then
        say "start to first answer: median $(awk -v v="$(median "${STARTUP_MS[@]}")" 'BEGIN { printf "%.1f", v }') ms (${#STARTUP_MS[@]} runs)"
    else
        say "start to first answer: n/a ($STARTUP_NOTE)"
    fi
    if ((${#WARNINGS[@]})); then
        say ""
        say "warnings:"
        for w in "${WARNINGS[@]}"; do say "- $w"; done
    fi
}

say ""
if [[ -n $OUT_DIR ]]; then
    summary | tee "$OUT_DIR/summary.md"
    say ""
    say "raw wrk output and summary: $OUT_DIR"
else
    summary
fi

# In-process figures wrk cannot give: the core's cost per request, the fixture's
# start + one request + stop (100 cycles), and a cold load of 10,000 stub files.
BENCH_BIN=${BENCH_BIN:-$(dirname "$STUBD_BIN")/stubd-bench}
say ""
if [[ -x $BENCH_BIN ]]; then
    say "## in-process (stubd-bench)"
    say ""
    (cd "$REPO_ROOT" && "$BENCH_BIN" "$STUBS_DIR") | tee ${OUT_DIR:+"$OUT_DIR/stubd-bench.txt"}
else
    say "in-process figures: $BENCH_BIN not built (swift build -c release --product stubd-bench)"
fi
