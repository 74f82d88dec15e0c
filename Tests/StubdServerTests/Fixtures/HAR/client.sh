#!/bin/sh
# The client whose traffic make-hars.sh captures, and which HARImportTests replays against the
# imported folder: the same curl commands, so "the same client gets the same answers".
# $1: base URL; the proxy, if any, comes from curl's own flags in $CURL_PROXY.
set -e
base=$1
c() { curl -s $CURL_PROXY -o /dev/null -w '%{http_code}\n' "$@"; }
c "$base/data/2.5/weather?q=London&appid=k3y-0123456789"
c "$base/data/2.5/weather?q=Paris&appid=k3y-0123456789"
c "$base/api/items.json"
c "$base/flaky"
c "$base/flaky"
c "$base/logo.png"
c --compressed "$base/notes.txt"
c -L "$base/old"
c -X OPTIONS -H 'Origin: http://app.example' -H 'Access-Control-Request-Method: POST' -H 'Access-Control-Request-Headers: content-type' "$base/v1/reports"
c -H 'Origin: http://app.example' -H 'Content-Type: application/json' -d '{"title":"weekly"}' "$base/v1/reports"
c -H 'Authorization: Bearer tok-abcdef123456' "$base/me"
c "$base/slow"
