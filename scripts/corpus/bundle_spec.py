#!/usr/bin/env python3
"""Bundle a split OpenAPI 3.x spec into one JSON document that openapi-core can load.

usage: bundle_spec.py SPEC OUT.json

Why: validate_corpus.py hands a split spec to openapi-core as is; DigitalOcean's bundle has two things
openapi-core's own spec check refuses (a tag `description` that is a `$ref` to text, and a `properties`
that is a `$ref` to the map of properties). Neither touches what an answer must be. This script:
  - hoists every `$ref` that leaves the root file (and every `#/...` ref written inside another file,
    which means that other file's root) under a root-level `x-bundle` map, rewriting the ref to
    `#/x-bundle/bN` (cycles stay refs, so recursion is kept);
  - inlines a `$ref` whose target is text or a number (DigitalOcean's tag descriptions);
  - reads `properties: {$ref: X}` as the map X names;
  - inlines path items and operations that are `$ref`s (OpenAPI 3.0 allows neither an operation `$ref`).
Only the harness's view of the spec changes; stubd is run on the original split files.
"""
import json
import os
import sys
import urllib.parse

import yaml


class Loader(yaml.SafeLoader):
    """YAML 1.2-ish: timestamps stay strings (JSON has no dates)."""


Loader.yaml_implicit_resolvers = {k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
                                  for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def load(path, cache={}):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        cache[path] = json.loads(text) if path.endswith(".json") else yaml.load(text, Loader=Loader)
    return cache[path]


def pointer(doc, fragment):
    for part in [p for p in fragment.lstrip("/").split("/") if p] if fragment else []:
        part = urllib.parse.unquote(part).replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def bundle(root):
    root = os.path.abspath(root)
    names, store = {}, {}

    def target_of(ref, file):
        f, _, frag = ref.partition("#")
        tfile = file if f == "" else os.path.normpath(os.path.join(os.path.dirname(file), f))
        return tfile, frag

    def walk(node, file):
        if isinstance(node, list):
            return [walk(n, file) for n in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            tfile, frag = target_of(ref, file)
            if tfile == root:
                return {"$ref": "#" + frag}
            target = pointer(load(tfile), frag)
            if not isinstance(target, (dict, list)):
                return target
            key = (tfile, frag)
            if key not in names:
                names[key] = "b%d" % len(names)
                store[names[key]] = walk(target, tfile)
            return {"$ref": "#/x-bundle/" + names[key]}
        out = {}
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict) and set(v) == {"$ref"} and isinstance(v["$ref"], str):
                tfile, frag = target_of(v["$ref"], file)
                out[k] = walk(pointer(load(tfile), frag), tfile)
            else:
                out[k] = walk(v, file)
        return out

    METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

    def deref(node, file):
        """(node, file) with a top $ref followed (operations may not be refs in OpenAPI 3.0)."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            file, frag = target_of(node["$ref"], file)
            node = pointer(load(file), frag)
        return node, file

    top = load(root)
    paths = {}
    for p, item in (top.get("paths") or {}).items():
        item, ifile = deref(item, root)
        new = {}
        for k, op in item.items():
            if k in METHODS:
                op, ofile = deref(op, ifile)
                new[k] = walk(op, ofile)
            else:
                new[k] = walk(op, ifile)
        paths[p] = new
    doc = walk({k: val for k, val in top.items() if k != "paths"}, root)
    doc["paths"] = paths
    doc["x-bundle"] = store
    return doc


if __name__ == "__main__":
    doc = bundle(sys.argv[1])
    with open(sys.argv[2], "w") as f:
        json.dump(doc, f)
    print("bundled %s: %d hoisted targets" % (sys.argv[1], len(doc["x-bundle"])))
