#!/usr/bin/env python3
"""Asks a running `stubd serve --spec` for every route `stubd openapi import` wrote, and validates
each answer against the spec with openapi-core (an implementation independent of stubd's own
validator). Used by Tests/StubdServerTests/RealWorldCorpusTests.swift on each spec in this folder,
and by OpenAPIImportTests and ContainsAndDiscriminatorTests on theirs.

usage: validate_corpus.py SPEC STUBS_DIR BASE_URL [--accept-each]

Sends one request per route in STUBS_DIR/stubd.yml (its Prefer header, if any, "1" for each path
parameter, and where the operation takes a body an empty one of the first media type it declares)
and checks the status against the manifest, then the status, headers and body against the spec.
Prints one line per answer and a last line "N answers, M failed"; exits 1 if any failed.

With --accept-each, it asks instead, for each route and each media type the spec's response for
that status declares (when it declares more than one), with `Accept:` that media type, and checks
the answer comes in it: JSON validated as above, XML well-formed (openapi-core reads no XML).

The spec is read as openapi-core reads it, with two changes that do not touch what an answer must
be: its `servers` become one local server (stubd serves paths relative to the spec's server, as
Prism does), and a Swagger 2.0 document is first converted to 3.0 here (openapi-core reads 3.x
only): `definitions`, `produces`, body/formData parameters and response schemas, the mechanical
mapping swagger2openapi also does; its external `$ref`s are inlined first.
"""
import copy
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

import yaml
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse

HOST = "http://localhost"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return json.loads(text) if path.endswith(".json") else yaml.safe_load(text)


def pointer(doc, fragment):
    for part in [p for p in fragment.lstrip("/").split("/") if p] if fragment else []:
        part = urllib.parse.unquote(part).replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def inline_external(node, base, root_path, stack=()):
    """Every `$ref` into another file replaced by what it names (refs inside it made relative to
    the document they land in is not needed: Swagger 2.0's split examples name files only)."""
    if isinstance(node, list):
        return [inline_external(n, base, root_path, stack) for n in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        file, _, fragment = ref.partition("#")
        path = os.path.normpath(os.path.join(base, file))
        if (path, fragment) in stack:
            raise SystemExit("a circular external $ref: %s" % ref)
        target = pointer(read(path), fragment)
        return inline_external(copy.deepcopy(target), os.path.dirname(path), root_path, stack + ((path, fragment),))
    return {k: inline_external(v, base, root_path, stack) for k, v in node.items()}


def rewrite_refs(node):
    if isinstance(node, list):
        return [rewrite_refs(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k == "$ref" and isinstance(v, str):
            v = v.replace("#/definitions/", "#/components/schemas/") \
                 .replace("#/parameters/", "#/components/parameters/") \
                 .replace("#/responses/", "#/components/responses/")
        out[k] = rewrite_refs(v)
    return out


def schema_of_parameter(p):
    keys = ("type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf")
    return {k: p.pop(k) for k in keys if k in p}


def convert2(doc):
    """Swagger 2.0 → OpenAPI 3.0.3, as much as response validation needs."""
    doc = rewrite_refs(doc)
    produces = doc.get("produces", ["application/json"])
    out = {"openapi": "3.0.3", "info": doc.get("info", {"title": "x", "version": "1"}), "paths": {},
           "components": {"schemas": doc.get("definitions", {}), "parameters": {}, "responses": {}}}

    def parameter(p):
        p = dict(p)
        if "$ref" in p or p.get("in") in ("body", "formData"):
            return p
        p["schema"] = schema_of_parameter(p)
        p.pop("collectionFormat", None)
        return p

    def response(r, produces):
        r = dict(r)
        if "$ref" in r:
            return r
        schema = r.pop("schema", None)
        examples = r.pop("examples", None) or {}
        r.setdefault("description", "")
        if schema is not None:
            r["content"] = {m: dict({"schema": schema}, **({"example": examples[m]} if m in examples else {}))
                            for m in produces}
        if "headers" in r:
            r["headers"] = {n: {"schema": schema_of_parameter(dict(h))} for n, h in r["headers"].items()}
        return r

    for name, p in doc.get("parameters", {}).items():
        out["components"]["parameters"][name] = parameter(p)
    for name, r in doc.get("responses", {}).items():
        out["components"]["responses"][name] = response(r, produces)
    for path, item in doc.get("paths", {}).items():
        new_item = {}
        shared = [parameter(p) for p in item.get("parameters", []) if p.get("in") not in ("body", "formData")]
        if shared:
            new_item["parameters"] = shared
        for method in METHODS:
            if method not in item:
                continue
            op = dict(item[method])
            op_produces = op.pop("produces", produces)
            op.pop("consumes", None)
            op["parameters"] = [parameter(p) for p in op.get("parameters", []) if p.get("in") not in ("body", "formData")]
            op["responses"] = {code: response(r, op_produces) for code, r in op.get("responses", {}).items()}
            op.pop("security", None)
            new_item[method] = op
        out["paths"][path] = new_item
    # A parameter $ref'd into body/formData would be dropped above only when inline; drop named ones too.
    for name, p in list(out["components"]["parameters"].items()):
        if p.get("in") in ("body", "formData"):
            del out["components"]["parameters"][name]
    for item in out["paths"].values():
        for op in [item] + [item[m] for m in METHODS if m in item]:
            if "parameters" in op:
                op["parameters"] = [p for p in op["parameters"]
                                    if not ("$ref" in p and p["$ref"].split("/")[-1] not in out["components"]["parameters"])]
    return out


def load_api(spec_path):
    doc = read(spec_path)
    if str(doc.get("swagger", "")).startswith("2"):
        doc = convert2(inline_external(doc, os.path.dirname(os.path.abspath(spec_path)), spec_path))
    doc["servers"] = [{"url": HOST}]
    for item in (doc.get("paths") or {}).values():
        if isinstance(item, dict):
            item.pop("servers", None)
            for m in METHODS:
                if isinstance(item.get(m), dict):
                    item[m].pop("servers", None)
    # openapi-core deserializes application/json alone: problem+json and the like are JSON too, and
    # a binary or text body (image/png, text/csv) is a string to its `type: string` schema, not bytes.
    deserializers = {}
    for media in media_types(doc) | {"application/problem+json", "text/plain", "text/html", "application/octet-stream"}:
        if media == "application/json" or media.endswith("xml") or media.startswith(("multipart/", "application/x-www-form")):
            continue
        # openapi-core 0.23 passes the Content-Type's parameters as keywords (`charset="utf-8"`): taken and
        # ignored, or every `text/html; charset=UTF-8` answer failed to deserialize whatever its body.
        deserializers[media] = ((lambda body, **_: json.loads(body)) if media.endswith("+json")
                                else (lambda body, **_: body.decode("latin-1") if isinstance(body, bytes) else body))
    return OpenAPI.from_dict(doc, base_uri="file://" + os.path.abspath(spec_path),
                             config=Config(extra_media_type_deserializers=deserializers))


def media_types(node):
    """Every media type named under a `content` in the document (its own file)."""
    found = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "content" and isinstance(v, dict):
                found |= {m for m in v if isinstance(m, str) and "/" in m}
            found |= media_types(v)
    elif isinstance(node, list):
        for v in node:
            found |= media_types(v)
    return found


def request_media_type(api, path, method):
    """The first media type the operation's requestBody declares, refs followed (None without one)."""
    try:
        content = api.spec / "paths" / path / method.lower() / "requestBody" / "content"
        return next(iter(content.keys()), None)
    except Exception:  # no such operation or no requestBody: send none
        return None


def response_media_types(api, path, method, status):
    """The media types the spec's response for `status` declares (its own, 2XX or default)."""
    responses = api.spec / "paths" / path / method.lower() / "responses"
    for key in (str(status), "%dXX" % (status // 100), "default"):
        try:
            return list((responses / key / "content").keys())
        except Exception:  # no such key: the next one
            continue
    return []


def ask(base, path, method, headers, data):
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def accept_each(api, routes, base):
    import xml.etree.ElementTree as ET
    asked = failures = 0
    for route in routes:
        req = route["request"]
        method = req.get("method", "GET")
        want = route["response"].get("status", 200)
        medias = response_media_types(api, req["path"], method, want)
        if len(medias) < 2:
            continue
        path = re.sub(r"\{[^}]+\}", "1", req["path"])
        for media in medias:
            headers = {k: v for k, v in (req.get("headers") or {}).items() if isinstance(v, str)}
            headers["Accept"] = media
            data = None
            body_media = request_media_type(api, req["path"], method)
            if body_media is not None:
                data = b"{}" if "json" in body_media else b""
                headers["Content-Type"] = body_media
            status, got_headers, body = ask(base, path, method, headers, data)
            asked += 1
            got = got_headers.get("Content-Type", "").split(";")[0].strip()
            label = "%s %s %s Accept: %s -> %d %s" % (method, path, headers.get("Prefer", "(plain)"), media, status, got)
            try:
                if status != want:
                    raise ValueError("the manifest says %d" % want)
                if got != media:
                    raise ValueError("not the media type asked for")
                if media.endswith("xml"):
                    ET.fromstring(body)
                else:
                    api.validate_response(MockRequest(HOST, method.lower(), path),
                                          MockResponse(body, status_code=status, headers=got_headers, content_type=got))
                print("ok   %s" % label)
            except Exception as e:
                print("FAIL %s: %s" % (label, e))
                failures += 1
    print("%d answers, %d failed" % (asked, failures))
    sys.exit(1 if failures else 0)


def main():
    spec_path, stubs, base = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
    api = load_api(spec_path)
    with open(os.path.join(stubs, "stubd.yml"), encoding="utf-8") as f:
        routes = yaml.safe_load(f)["routes"] or []
    if sys.argv[4:] == ["--accept-each"]:
        return accept_each(api, routes, base)
    failures = 0
    for route in routes:
        req = route["request"]
        method = req.get("method", "GET")
        path = re.sub(r"\{[^}]+\}", "1", req["path"])
        headers = {k: v for k, v in (req.get("headers") or {}).items() if isinstance(v, str)}
        data = None
        media = request_media_type(api, req["path"], method)
        if media is not None:
            data = b"{}" if "json" in media else b""
            headers["Content-Type"] = media
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                status, got_headers, body = r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            status, got_headers, body = e.code, dict(e.headers), e.read()
        want = route["response"].get("status", 200)
        label = "%s %s %s -> %d" % (method, path, headers.get("Prefer", "(plain)"), status)
        if status != want:
            print("FAIL %s: the manifest says %d: %s" % (label, want, body[:300]))
            failures += 1
            continue
        content_type = got_headers.get("Content-Type", "application/octet-stream")
        response = MockResponse(body, status_code=status, headers=got_headers, content_type=content_type)
        try:
            api.validate_response(MockRequest(HOST, method.lower(), path), response)
            print("ok   %s" % label)
        except Exception as e:  # openapi-core raises one of several validation errors
            cause = getattr(e, "__cause__", None)
            print("FAIL %s: %s %s" % (label, e, cause or ""))
            failures += 1
    print("%d answers, %d failed" % (len(routes), failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
