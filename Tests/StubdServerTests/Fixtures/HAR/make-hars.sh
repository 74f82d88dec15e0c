#!/bin/sh
# Regenerates the HAR files HARImportTests imports, from real traffic: upstream.py behind mitmproxy
# (its hardump addon writes the HAR), curl as the client. mitmproxy is needed here only, not when
# the tests run: `.build/venv/bin/pip install mitmproxy`, then
#   Tests/StubdServerTests/Fixtures/HAR/make-hars.sh [path/to/venv]
#
# mitmproxy-forward.har: client.sh through mitmproxy as an HTTP proxy, one host (127.0.0.1:PORT).
# mitmproxy-two-hosts.har: mitmproxy as a reverse proxy in front of the same upstream, reached under
#   two host names (the Host header names the host in the HAR), for --host.
# Examples/HAR/weather-session.har: a short session, the one docs/importing.md imports.
set -e
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-$here/../../../../.build/venv}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do python3 -c "import socket,sys; socket.create_connection((\"127.0.0.1\", $1), 1)" 2>/dev/null && return; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }

up=$(free_port)
python3 "$here/upstream.py" "$up" > /dev/null & upstream=$!
trap 'kill $upstream 2>/dev/null' EXIT
wait_port "$up"

proxy=$(free_port)
"$venv/bin/mitmdump" -q --listen-host 127.0.0.1 --listen-port "$proxy" --set hardump="$here/mitmproxy-forward.har" & mitm=$!
wait_port "$proxy"
CURL_PROXY="-x http://127.0.0.1:$proxy" sh "$here/client.sh" "http://127.0.0.1:$up" > /dev/null
kill -INT $mitm; wait $mitm || true

reverse=$(free_port)
"$venv/bin/mitmdump" -q --listen-host 127.0.0.1 --listen-port "$reverse" --mode "reverse:http://127.0.0.1:$up" --set keep_host_header=true \
    --set hardump="$here/mitmproxy-two-hosts.har" & mitm=$!
wait_port "$reverse"
b="http://127.0.0.1:$reverse"
curl -s -o /dev/null -H 'Host: api.weather.test' "$b/data/2.5/weather?q=London&appid=k3y-0123456789"
curl -s -o /dev/null -H 'Host: api.weather.test' "$b/api/items.json"
curl -s -o /dev/null -H 'Host: cdn.assets.test' "$b/logo.png"
kill -INT $mitm; wait $mitm || true

examples=$here/../../../../Examples/HAR
mkdir -p "$examples"
"$venv/bin/mitmdump" -q --listen-host 127.0.0.1 --listen-port "$reverse" --mode "reverse:http://127.0.0.1:$up" --set keep_host_header=true \
    --set hardump="$examples/weather-session.har" & mitm=$!
wait_port "$reverse"
curl -s -o /dev/null -H 'Host: api.weather.test' "$b/data/2.5/weather?q=London&appid=k3y-0123456789"
curl -s -o /dev/null -H 'Host: api.weather.test' "$b/api/items.json"
curl -s -o /dev/null -H 'Host: api.weather.test' "$b/flaky"
curl -s -o /dev/null -H 'Host: api.weather.test' "$b/flaky"
kill -INT $mitm; wait $mitm || true
ls -l "$here"/*.har "$examples"/*.har
