#!/usr/bin/env python3
"""Asks a running stubd for every answer `stubd openapi import` wrote, and validates each against
the spec with openapi-core (an implementation independent of stubd's own validator).

usage: validate_answers.py SPEC STUBS_DIR BASE_URL
Reads STUBS_DIR/stubd.yml, sends one request per route (its Prefer header, if any, and "1" for
each path parameter), and checks the status, headers and body with openapi-core's response
validation. Prints one line per answer; exits 1 if any fails.
"""
import json
import re
import sys
import urllib.error
import urllib.request

import yaml
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse

spec_path, stubs, base = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
# openapi-core parses application/json only; problem+json is JSON too.
api = OpenAPI.from_file_path(spec_path, config=Config(
    extra_media_type_deserializers={"application/problem+json": json.loads}))
with open(stubs + "/stubd.yml") as f:
    routes = yaml.safe_load(f)["routes"]

failures = 0
for route in routes:
    req = route["request"]
    method = req.get("method", "GET")
    path = re.sub(r"\{[^}]+\}", "1", req["path"])
    headers = dict(req.get("headers", {}))
    data = b"{}" if method in ("POST", "PUT", "PATCH") else None
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            status, got_headers, body = r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        status, got_headers, body = e.code, dict(e.headers), e.read()
    want = route["response"]["status"]
    label = "%s %s %s -> %d" % (method, path, headers.get("Prefer", "(plain)"), status)
    if status != want:
        print("FAIL %s: the manifest says %d" % (label, want))
        failures += 1
        continue
    content_type = got_headers.get("Content-Type", "application/octet-stream")
    response = MockResponse(body, status_code=status, headers=got_headers, content_type=content_type)
    try:
        api.validate_response(MockRequest("http://localhost", method.lower(), path), response)
        print("ok   %s" % label)
    except Exception as e:  # openapi-core raises one of several validation errors
        cause = getattr(e, "__cause__", None)
        print("FAIL %s: %s %s" % (label, e, cause or ""))
        failures += 1

print("%d answers, %d failed" % (len(routes), failures))
sys.exit(1 if failures else 0)
