"""Reads `swift package dump-package` on stdin; fails when a client-side product reaches the server's
libraries (CMicroHTTPD, CCurl, CGnuTLS, X509, Crypto) on a platform where libmicrohttpd cannot run,
when the test helpers lose the in-process server on macOS or Linux with the default traits, when the
helpers built without the package's traits (a dependency declared with `traits: []`, issue 60) reach
anything of the server or a system C library on any platform, or when they reach swift-crypto,
swift-certificates or OpenAPIKit, or the default build (the `stubd` binary) loses them.
Used by scripts/check-client-side."""
import json, sys
manifest = json.load(sys.stdin)
targets = {t["name"]: t for t in manifest["targets"]}
# The traits a dependency declared without `traits:` gets, and the `stubd` binary is built with.
DEFAULT_TRAITS = set(next((t["enabledTraits"] for t in manifest.get("traits", []) if t["name"] == "default"), []))

def active(condition, platform, traits):
    """Whether a dependency with this condition is built on `platform` with `traits` enabled."""
    if not isinstance(condition, dict):
        return True
    if condition.get("platformNames") and platform not in condition["platformNames"]:
        return False
    return not condition.get("traits") or bool(set(condition["traits"]) & traits)

def deps(name, platform):
    if name not in targets:  # a package's product: a leaf here
        return
    for d in targets[name]["dependencies"]:
        kind, value = next(iter(d.items()))
        dep, condition = value[0], value[-1]
        if not active(condition, platform, DEFAULT_TRAITS):
            continue
        if kind in ("target", "byName") and dep in targets:
            yield dep
        elif kind == "product" and dep in SERVER_ONLY:
            yield dep

def path_to(start, goal, platform):
    stack = [(start, [start])]
    while stack:
        name, path = stack.pop()
        if name == goal:
            return path
        stack.extend((d, path + [d]) for d in deps(name, platform))
    return None

failed = False
# The server's C libraries: libmicrohttpd (serving), libcurl (forwarding, `stubd record`) and GnuTLS
# (HTTPS); and the packages its local CA is built with (swift-certificates' X509, swift-crypto).
SERVER_ONLY = ["CMicroHTTPD", "CCurl", "CGnuTLS", "X509", "Crypto"]
for platform in ["ios", "tvos", "watchos", "visionos"]:
    paths = [p for p in (path_to(product, lib, platform) for product in ["StubdClient", "StubdInProcess", "StubdXCTest", "StubdTesting"]
                         for lib in SERVER_ONLY) if p]
    for path in paths:
        print(f"FAIL {platform}: {path[0]} reaches {path[-1]}: {' -> '.join(path)}")
    if paths:
        failed = True
    else:
        print(f"ok   {platform}: no path from StubdClient, StubdInProcess, StubdXCTest or StubdTesting to {' or '.join(SERVER_ONLY)}")
for product in ["StubdXCTest", "StubdTesting"]:
    if not path_to(product, "CMicroHTTPD", "macos") or not path_to(product, "CMicroHTTPD", "linux"):
        failed = True
        print(f"FAIL {product} lost the in-process server on macOS or Linux with the default traits")

def closure(name, platform, traits=DEFAULT_TRAITS):
    seen, stack = {}, [(name, [name])]
    while stack:
        node, path = stack.pop()
        if node in seen:
            continue
        seen[node] = path
        for d in targets.get(node, {}).get("dependencies", []):
            kind, value = next(iter(d.items()))
            dep, condition = value[0], value[-1]
            if not active(condition, platform, traits):
                continue
            stack.append((dep, path + [dep]))
    return seen

# The helpers without the traits: the engine answering without a socket, on every platform; nothing
# of the server (Stubd) and no system library (libmicrohttpd, libcurl, GnuTLS) in the whole closure.
for product in ["StubdXCTest", "StubdTesting", "StubdInProcess"]:
    ok = True
    for platform in ["linux", "macos", "ios", "tvos", "watchos", "visionos"]:
        reached = closure(product, platform, traits=set())
        bad = sorted(n for n in reached if n == "Stubd" or n in SERVER_ONLY or targets.get(n, {}).get("type") == "system")
        for name in bad:
            ok = False
            print(f"FAIL {platform}: {product} without traits reaches {name}: {' -> '.join(reached[name])}")
    if ok:
        print(f"ok   {product} without traits: nothing of the server, no system C library, on every platform")
    failed = failed or not ok

# The in-process helpers without the traits (`traits: []`): the server, its C libraries, Yams and
# HTTPTypes, and none of the packages that take most of a clean build (scripts/measure-helper-build
# --light). The default build keeps them all: the `stubd` binary's TLS, CA and specs are unchanged.
HEAVY = {"X509": "TLS", "Crypto": "TLS", "OpenAPIKit": "OpenAPI", "OpenAPIKit30": "OpenAPI"}
for platform in ["linux", "macos"]:
    for product in ["StubdXCTest", "StubdTesting", "Stubd"]:
        reached = closure(product, platform, traits=set())
        heavy = sorted(set(reached) & set(HEAVY))
        for name in heavy:
            failed = True
            print(f"FAIL {platform}: {product} without traits reaches {name} (give it the {HEAVY[name]} trait's condition): {' -> '.join(reached[name])}")
        if not heavy:
            print(f"ok   {platform}: {product} without traits reaches none of {', '.join(sorted(HEAVY))}")
    lost = sorted(set(HEAVY) - set(closure("StubdCLI", platform))) if "StubdCLI" in targets else []
    if lost:
        failed = True
        print(f"FAIL {platform}: the stubd binary with the default traits ({', '.join(sorted(DEFAULT_TRAITS)) or 'none'}) lost {', '.join(lost)}")
sys.exit(1 if failed else 0)
