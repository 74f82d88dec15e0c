#!/usr/bin/env bash
# The steps of stubd's GitHub Action (action.yml at the repository's root), as one script so that
# they run, and are tested, outside GitHub too (Tests/Action/action_test.py runs every subcommand
# against a temporary Stubs folder).
#
#   stubd-action.sh plan      the version, where stubd is installed, the cache key (GITHUB_OUTPUT)
#   stubd-action.sh install   the release tarball for this runner when the version has one, else a
#                             build from this checkout's source; adds its bin/ to GITHUB_PATH
#   stubd-action.sh start     `stubd serve` in the background on loopback, waits for
#                             /__stubd/health, exports STUBD_URL (GITHUB_ENV)
#   stubd-action.sh stop      SIGTERM, waits for stubd to exit 0, prints the coverage report it
#                             wrote (--coverage-out) and fails under the threshold when one is set
#
# The action passes its inputs as environment variables (never pasted into the script's text):
#   STUBD_ACTION_VERSION       X.Y.Z; empty: the version of this checkout (the action's ref)
#   STUBD_ACTION_STUBS         the Stubs folder (default Stubs)
#   STUBD_ACTION_PORT          default 8080; 0 picks a free one (STUBD_URL says which)
#   STUBD_ACTION_SERVE_ARGS    more arguments for `stubd serve`, split on spaces
#   STUBD_ACTION_COVERAGE_OUT  where stubd writes its coverage report (default stubd-coverage.json)
#   STUBD_ACTION_FAIL_UNDER    a percentage: stop fails when less was covered; empty: no threshold
#   STUBD_ACTION_REPOSITORY    owner/name whose releases hold the tarballs (default: the action's own)
#   STUBD_ACTION_HOME          the install and the server's pid, exit status and log
#                              (default $RUNNER_TEMP/stubd-action)
# and, to point it elsewhere than GitHub (the tests do):
#   STUBD_ACTION_RELEASES_URL  where the tarballs and SHA256SUMS are (default
#                              https://github.com/OWNER/NAME/releases/download/vVERSION; file:// works)
#   STUBD_ACTION_SOURCE        the stubd checkout built when there is no tarball (default: this one)
#   STUBD_ACTION_BUILD_ARGS    `swift build` arguments for that build (default -c release, with
#                              --static-swift-stdlib on Linux as the release tarballs are built)
#   STUBD_ACTION_WAIT          seconds to wait for stubd to serve, and to stop (default 60)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=${STUBD_ACTION_SOURCE:-$(cd "$here/../.." && pwd)}
home=${STUBD_ACTION_HOME:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/stubd-action}
install_dir=$home/install
wait_seconds=${STUBD_ACTION_WAIT:-60}

fail() { echo "::error title=stubd::$*" >&2; exit 1; }
note() { echo "stubd-action: $*"; }
# GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY are files the runner reads after
# the step; outside a runner they may be unset, and nothing is written.
append() { local file=$1; shift; [ -z "$file" ] || printf '%s\n' "$@" >>"$file"; }

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }

# The version this checkout builds: the one `stubd --version` prints (scripts/build-release checks
# a release tag against the same value).
source_version() {
    local file=$source_dir/Sources/StubdEngine/Answer/StubEngine.swift
    [ -f "$file" ] || fail "no stubd source at $source_dir ($file is missing): set STUBD_ACTION_SOURCE to a stubd checkout"
    sed -n -E 's/.*static let version = "([^"]+)".*/\1/p' "$file" | head -1
}

version() {
    local v=${STUBD_ACTION_VERSION:-}
    v=${v#v}
    [ -n "$v" ] || v=$(source_version)
    [ -n "$v" ] || fail "could not read stubd's version from $source_dir: set the action's \`version\` input"
    echo "$v"
}

# What the release workflow (.github/workflows/release.yml) publishes: one tarball per Linux
# architecture (`uname -m`: x86_64, aarch64) and one universal binary for macOS.
tarball_name() {
    local v=$1
    case "$(uname -s)" in
        Linux) echo "stubd-$v-linux-$(uname -m)" ;;
        Darwin) echo "stubd-$v-macos-universal" ;;
        *) fail "stubd runs on Linux and macOS runners, not $(uname -s)" ;;
    esac
}

# The repository whose releases to use: the input, else the action's own. github.action_repository
# is empty inside a composite action's run steps (actions/runner#2473), so the action's path, which
# the runner lays out as …/_actions/OWNER/NAME/REF, is the fallback.
repository() {
    if [ -n "${STUBD_ACTION_REPOSITORY:-}" ]; then echo "$STUBD_ACTION_REPOSITORY"; return; fi
    case "$source_dir" in
        */_actions/*/*/*) local rest=${source_dir#*/_actions/}; echo "${rest%%/*}/$(cut -d/ -f2 <<<"$rest")" ;;
        *) echo "" ;;
    esac
}

releases_url() {
    local v=$1 repo
    if [ -n "${STUBD_ACTION_RELEASES_URL:-}" ]; then echo "${STUBD_ACTION_RELEASES_URL%/}"; return; fi
    repo=$(repository)
    if [ -n "$repo" ]; then echo "https://github.com/$repo/releases/download/v$v"; fi
}

# A digest of what a build from source compiles, in the cache key: a branch (`uses: …@main`) keeps
# its version number while its code changes, and must not get last week's cached build.
source_digest() {
    (cd "$source_dir" && find Package.swift Package.resolved Sources -type f -print0 2>/dev/null | LC_ALL=C sort -z \
        | xargs -0 "$(command -v sha256sum >/dev/null && echo sha256sum || echo shasum)" | sha256 | cut -c1-16)
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; return; fi
    command -v sudo >/dev/null || fail "installing packages needs root, and there is no sudo: install them in the image ($*)"
    sudo "$@"
}

# Ubuntu 24.04 (ubuntu-latest) names the 64-bit-time builds of these libraries with a t64 suffix;
# Debian 12 (a swift:…-bookworm container) does not.
apt_install() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    local wanted=() p
    for p in "$@"; do
        if apt-cache show "${p}t64" >/dev/null 2>&1; then wanted+=("${p}t64"); else wanted+=("$p"); fi
    done
    note "apt-get install ${wanted[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${wanted[@]}"
}

brew_install_missing() {
    local missing=() p
    for p in "$@"; do
        if [ "$p" = pkg-config ]; then command -v pkg-config >/dev/null || missing+=("$p")
        else brew list --versions "$p" >/dev/null 2>&1 || missing+=("$p"); fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then note "brew install ${missing[*]}"; brew install "${missing[@]}"; fi
}

# What the binary loads at run time: libmicrohttpd, GnuTLS and libcurl (Linux: the release binary
# links Swift's runtime in; macOS: Homebrew's libmicrohttpd and gnutls, as the release's are built).
runtime_libraries() {
    if [ "$(uname -s)" = Darwin ]; then brew_install_missing libmicrohttpd gnutls; return; fi
    local missing=() pair
    for pair in libmicrohttpd.so.12:libmicrohttpd12 libgnutls.so.30:libgnutls30 libcurl.so.4:libcurl4; do
        /sbin/ldconfig -p 2>/dev/null | grep -q "${pair%%:*}" || missing+=("${pair#*:}")
    done
    if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

# What a build from source needs besides Swift (scripts/setup's list, less the tests' tools).
build_packages() {
    if [ "$(uname -s)" = Darwin ]; then brew_install_missing libmicrohttpd gnutls pkg-config; return; fi
    local missing=() p
    for p in pkg-config libmicrohttpd-dev libgnutls28-dev libcurl4-openssl-dev; do
        dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

installed_version() { "$install_dir/bin/stubd" --version 2>/dev/null || true; }

# The release's tarball, checked against the release's SHA256SUMS. Returns 1 (and says why) when
# the version has none for this runner, so install builds from source instead.
install_tarball() {
    local v=$1 base name download
    base=$(releases_url "$v")
    name=$(tarball_name "$v")
    if [ -z "$base" ]; then
        note "no repository to download releases from (set the action's \`repository\` input): building from source"
        return 1
    fi
    download=$(mktemp -d)
    if ! curl -fsSL --retry 3 -o "$download/$name.tar.gz" "$base/$name.tar.gz" 2>"$download/curl.err"; then
        note "no release tarball at $base/$name.tar.gz ($(tr -d '\n' <"$download/curl.err")): building from source"
        rm -rf "$download"
        return 1
    fi
    curl -fsSL --retry 3 -o "$download/SHA256SUMS" "$base/SHA256SUMS" \
        || fail "$base/$name.tar.gz exists but $base/SHA256SUMS does not: the release is incomplete, nothing was installed"
    local want got
    want=$(awk -v f="$name.tar.gz" '$2 == f || $2 == "*" f { print $1 }' "$download/SHA256SUMS")
    got=$(sha256 "$download/$name.tar.gz" | cut -d' ' -f1)
    [ -n "$want" ] || fail "$base/SHA256SUMS has no line for $name.tar.gz: nothing was installed"
    [ "$want" = "$got" ] || fail "$name.tar.gz from $base has SHA-256 $got, its SHA256SUMS says $want: nothing was installed"
    rm -rf "$install_dir"
    mkdir -p "$install_dir"
    tar -xzf "$download/$name.tar.gz" -C "$install_dir" --strip-components 1
    rm -rf "$download"
    note "installed $name.tar.gz from $base (SHA-256 $got)"
}

install_from_source() {
    local v=$1 have
    have=$(source_version)
    [ "$have" = "$v" ] || fail "stubd $v has no release tarball for this runner, and the action's checkout ($source_dir) is $have: use the action at that version (uses: …/stubd@v$v) or leave \`version\` empty"
    command -v swift >/dev/null || fail "building stubd $v from source needs Swift 6.1 or later, and this runner has no \`swift\`: use ubuntu-latest or macos-latest, or a swift:6.3.1-bookworm container"
    build_packages
    local args=()
    if [ -n "${STUBD_ACTION_BUILD_ARGS:-}" ]; then
        read -r -a args <<<"$STUBD_ACTION_BUILD_ARGS"
    elif [ "$(uname -s)" = Linux ]; then
        args=(-c release --static-swift-stdlib)
    else
        args=(-c release)
    fi
    note "swift build ${args[*]} --product stubd in $source_dir (cached for the next run of this version and source)"
    local started=$SECONDS bin
    swift build "${args[@]}" --product stubd --package-path "$source_dir"
    bin=$(swift build "${args[@]}" --package-path "$source_dir" --show-bin-path)
    rm -rf "$install_dir"
    mkdir -p "$install_dir/bin"
    cp "$bin/stubd" "$install_dir/bin/stubd"
    note "built stubd $v from source in $((SECONDS - started)) s"
}

cmd_plan() {
    local v key
    v=$(version)
    key="stubd-$v-$(uname -s)-$(uname -m)-$(source_digest)"
    note "stubd $v, installed in $install_dir, cache key $key"
    append "${GITHUB_OUTPUT:-}" "version=$v" "install-dir=$install_dir" "cache-key=$key"
}

cmd_install() {
    local v got
    v=$(version)
    runtime_libraries
    if [ "$(installed_version)" = "$v" ]; then
        note "stubd $v is already in $install_dir (restored from the cache)"
    elif ! install_tarball "$v"; then
        install_from_source "$v"
    fi
    got=$(installed_version)
    [ "$got" = "$v" ] || fail "$install_dir/bin/stubd --version says '${got:-nothing}', not $v"
    append "${GITHUB_PATH:-}" "$install_dir/bin"
    append "${GITHUB_OUTPUT:-}" "stubd=$install_dir/bin/stubd"
    note "stubd $v: $install_dir/bin/stubd"
}

running_pid() {
    [ -f "$home/serve.pid" ] && [ ! -f "$home/serve.status" ] && kill -0 "$(cat "$home/serve.pid")" 2>/dev/null && cat "$home/serve.pid"
}

cmd_start() {
    local stubd=$install_dir/bin/stubd stubs=${STUBD_ACTION_STUBS:-Stubs} port=${STUBD_ACTION_PORT:-8080}
    local coverage=${STUBD_ACTION_COVERAGE_OUT:-stubd-coverage.json} extra=() log=$home/serve.log pid
    [ -x "$stubd" ] || fail "stubd is not installed in $install_dir: run install first"
    [ -d "$stubs" ] || fail "the Stubs folder '$stubs' does not exist (relative to $PWD): set the action's \`stubs\` input"
    if [ -n "${STUBD_ACTION_SERVE_ARGS:-}" ]; then read -r -a extra <<<"$STUBD_ACTION_SERVE_ARGS"; fi
    if pid=$(running_pid); then
        fail "stubd is already running (pid $pid): the action starts one stubd per job; stop it first (stop: true)"
    fi
    case "$coverage" in /*) ;; *) coverage=$PWD/$coverage ;; esac
    mkdir -p "$home" "$(dirname "$coverage")"
    rm -f "$home/serve.pid" "$home/serve.status" "$coverage"
    printf '%s\n' "$coverage" >"$home/coverage-path"
    # Loopback: serve's default host, not repeated here so that serve args may choose another.
    # The subshell outlives this step (the runner ends a job's leftover processes only when the
    # job ends) and keeps stubd's exit status for stop to check: stubd is not stop's child.
    (
        "$stubd" serve --stubs "$stubs" --port "$port" --coverage-out "$coverage" ${extra[@]+"${extra[@]}"} </dev/null >"$log" 2>&1 &
        echo $! >"$home/serve.pid"
        status=0
        wait $! || status=$?
        echo "$status" >"$home/serve.status"
    ) </dev/null >/dev/null 2>&1 &

    local deadline=$((SECONDS + wait_seconds)) line="" url
    while [ "$SECONDS" -lt "$deadline" ]; do
        if [ -f "$home/serve.status" ]; then
            cat "$log" >&2
            fail "stubd serve exited $(cat "$home/serve.status") before serving (its output is above)"
        fi
        line=$(grep -m1 '^stubd listening on ' "$log" 2>/dev/null || true)
        [ -z "$line" ] || break
        sleep 0.1
    done
    [ -n "$line" ] || { cat "$log" >&2; fail "stubd serve said nothing of listening within ${wait_seconds} s (its output is above)"; }
    url=$(sed -E 's#^stubd listening on ([a-z]+://[^ ]+).*#\1#' <<<"$line")
    url=${url%/}
    # Listening on every interface (--host 0.0.0.0 in serve args), the tests still call loopback.
    url=$(sed -E 's#://(0\.0\.0\.0|\[::\])(:[0-9]+)#://127.0.0.1\2#' <<<"$url")
    until curl -fsS --max-time 2 -o /dev/null -k "$url/__stubd/health" 2>/dev/null; do
        [ ! -f "$home/serve.status" ] || { cat "$log" >&2; fail "stubd serve exited $(cat "$home/serve.status") before its health check answered"; }
        [ "$SECONDS" -lt "$deadline" ] || { cat "$log" >&2; fail "$url/__stubd/health did not answer within ${wait_seconds} s"; }
        sleep 0.1
    done
    append "${GITHUB_ENV:-}" "STUBD_URL=$url"
    append "${GITHUB_OUTPUT:-}" "url=$url" "log=$log" "pid=$(cat "$home/serve.pid")"
    echo "$line"
    note "STUBD_URL=$url (pid $(cat "$home/serve.pid"); log $log; coverage to $coverage when stopped)"
}

cmd_stop() {
    local threshold=${STUBD_ACTION_FAIL_UNDER:-} log=$home/serve.log pid coverage status
    if [ ! -f "$home/serve.pid" ]; then
        [ -z "$threshold" ] || fail "stubd was not started in this job ($home/serve.pid is missing), so there is no coverage to hold to $threshold%"
        echo "::warning title=stubd::stubd was not started in this job ($home/serve.pid is missing): nothing to stop"
        return 0
    fi
    pid=$(cat "$home/serve.pid")
    coverage=$(cat "$home/coverage-path")
    if [ -f "$home/serve.status" ]; then
        tail -n 50 "$log" >&2
        fail "stubd serve had already exited ($(cat "$home/serve.status")) before the stop step: the end of its log is above"
    fi
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + wait_seconds))
    while [ ! -f "$home/serve.status" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    if [ ! -f "$home/serve.status" ]; then
        kill -KILL "$pid" 2>/dev/null || true
        tail -n 50 "$log" >&2
        fail "stubd serve (pid $pid) had not stopped ${wait_seconds} s after SIGTERM and was killed: no coverage was written"
    fi
    status=$(cat "$home/serve.status")
    echo "::group::stubd serve's log (the last 50 of $(wc -l <"$log" | tr -d ' ') lines; all of it in $log)"
    tail -n 50 "$log"
    echo "::endgroup::"
    [ "$status" = 0 ] || fail "stubd serve exited $status after SIGTERM (0 expected): the end of its log is above"
    [ -f "$coverage" ] || fail "stubd stopped but wrote no coverage report at $coverage"
    append "${GITHUB_OUTPUT:-}" "coverage=$coverage"
    local args=(coverage --from "$coverage") verdict=0 report
    if [ -n "$threshold" ]; then args+=(--fail-under "$threshold"); fi
    report=$("$install_dir/bin/stubd" "${args[@]}" 2>&1) || verdict=$?
    echo "$report"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        { echo "### stubd coverage"; echo; echo '```'; grep -E 'items covered|^scenarios:|^network behaviours:' <<<"$report" || true; echo '```'; } >>"$GITHUB_STEP_SUMMARY"
    fi
    [ "$verdict" -eq 0 ] || fail "coverage is under $threshold% (stubd coverage --from $coverage --fail-under $threshold; in the report above, each uncovered item, marked -, says how to reach it)"
    note "stubd stopped (exit 0); coverage report: $coverage"
}

case "${1:-}" in
    plan) cmd_plan ;;
    install) cmd_install ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    *) echo "usage: $0 plan|install|start|stop (the steps of stubd's GitHub Action; see action.yml)" >&2; exit 2 ;;
esac
