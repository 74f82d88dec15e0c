#!/usr/bin/env python3
"""Sorts prism_harness.py's failures into causes (first rule that fits wins). usage: classify_prism.py LOGDIR SPECS_DIR"""
import json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prism_harness import parse_case, parse_http, json_or_none, key_shape

logdir, specs = sys.argv[1], sys.argv[2]
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(logdir, "results.tsv"))]
out = []
for rel, cls, verdict, detail in rows:
    case = parse_case(open(os.path.join(specs, rel), encoding="utf-8").read())
    name = rel.replace("/", "__")[:-4]
    got_path = os.path.join(logdir, name, "got.txt")
    got = open(got_path).read() if os.path.exists(got_path) else ""
    kind = "expect" if "expect" in case else ("expect-loose" if "expect-loose" in case else "expect-keysonly")
    es, eh, eb = parse_http(case.get(kind, "").strip())
    gs, gh, gb = parse_http(got.strip())
    cmd = case.get("command", "")
    spec = case.get("spec", "")
    cause = ""
    if verdict == "PASS":
        cause = "pass"
    elif rel.endswith(".pc.txt"):
        cause = "postman-collection (not OpenAPI)"
    elif cls != "plain":
        cause = "prism-option"
    elif re.search(r"__code|__example|__dynamic", cmd):
        cause = "prism query-string preferences (__code/__example/__dynamic)"
    elif re.search(r"prefer:[^\n]*dynamic", cmd, re.I):
        cause = "prism Prefer: dynamic=true"
    elif rel.startswith("cors/"):
        cause = "prism CORS by default"
    elif "xml" in (eh.get("content-type", "") + cmd.lower()) or "xml" in verdict.lower():
        cause = "xml body"
    elif verdict == "FAIL-body" and "stoplight.io/prism/errors" in eb and es == gs:
        cause = "prism's own error text (status and type match)"
    elif verdict == "FAIL-body" and es == gs and json_or_none(eb.strip()) is not None and json_or_none(gb.strip()) is not None \
            and key_shape(json_or_none(eb.strip())) == key_shape(json_or_none(gb.strip())):
        cause = "sampled values differ (same JSON shape)"
    elif verdict == "FAIL-body" and es == gs and json_or_none(eb.strip()) is None and eb.strip() in ("string", "") :
        cause = "sampled values differ (text)"
    else:
        cause = "REVIEW"
    out.append((rel, cls, verdict, cause, detail))
with open(os.path.join(logdir, "classified.tsv"), "w") as f:
    for r in out:
        f.write("\t".join(r) + "\n")
from collections import Counter
c = Counter((r[1] if not r[0].endswith(".pc.txt") else "postman", r[3]) for r in out)
for k, v in sorted(c.items(), key=lambda kv: -kv[1]):
    print(v, k)
