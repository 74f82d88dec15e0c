"""What the users' compose file (Examples/compose/docker-compose.yml) promises, read from
`docker-compose config` run in a folder outside the repository. Used by scripts/check-user-compose.

Usage: user_compose.py FOLDER RESOLVED_YAML"""
import pathlib, re, sys
import yaml

folder, resolved = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2])
services = yaml.safe_load(resolved.read_text())["services"]
repo = pathlib.Path(__file__).resolve().parent.parent
problems = []

def check(ok, what):
    if not ok:
        problems.append(what)

version = re.search(r'static let version = "([^"]+)"', (repo / "Sources/StubdEngine/Answer/StubEngine.swift").read_text()).group(1)
release = (repo / ".github/workflows/release.yml").read_text()
check("images: ghcr.io/${{ github.repository }}" in release and "push: true" in release,
      ".github/workflows/release.yml no longer pushes an image to ghcr.io/${{ github.repository }}: the compose file names what it publishes")

stubd, tests = services.get("stubd", {}), services.get("tests", {})
for name, service in services.items():
    check("build" not in service, f"service {name} builds an image: a user's repository has no stubd sources to build from")
    for volume in service.get("volumes", []):
        source = volume.split(":")[0] if isinstance(volume, str) else volume.get("source", "")
        if source.startswith("/"):
            check(pathlib.Path(source).resolve().is_relative_to(folder),
                  f"service {name} mounts {source}, outside the user's folder")
image = stubd.get("image", "")
check(re.fullmatch(r"ghcr\.io/[a-z0-9._-]+/stubd:" + re.escape(version), image) is not None,
      f"stubd's image is {image!r}: expected the release workflow's ghcr.io/OWNER/stubd:{version} (this checkout's version)")
mounts = [v for v in stubd.get("volumes", []) if isinstance(v, str)]
check(f"{folder}/Stubs:/Stubs:ro" in mounts, f"stubd does not mount the user's ./Stubs at /Stubs read-only: {mounts}")
command = stubd.get("command", [])
check(command[:1] == ["serve"] and "--stubs" in command and command[command.index("--stubs") + 1] == "/Stubs",
      f"stubd's command does not serve /Stubs: {command}")
check("0.0.0.0" in command, "stubd listens on loopback only: the tests container cannot reach it")
health = " ".join(stubd.get("healthcheck", {}).get("test", []))
check("/__stubd/health" in health, f"stubd's healthcheck is not the admin health endpoint: {health!r}")

check(tests.get("environment", {}).get("STUBD_URL") == "http://stubd:8080", "tests does not set STUBD_URL=http://stubd:8080")
check(tests.get("depends_on", {}).get("stubd", {}).get("condition") == "service_healthy",
      "tests does not wait for stubd's healthcheck (depends_on: stubd: condition: service_healthy)")
check(re.fullmatch(r"swift:[0-9.]+-[a-z]+", tests.get("image", "")) is not None, f"tests' image is not a plain Swift image: {tests.get('image')!r}")
text = " ".join(tests.get("command", [])) if isinstance(tests.get("command"), list) else str(tests.get("command"))
check(not re.search(r"apt-get|apt |libmicrohttpd|scripts/setup", text),
      f"tests installs something ({text!r}): with stubd declared `traits: []` its helpers need no C library")

for problem in problems:
    print(f"FAIL {problem}")
if problems:
    sys.exit(1)
print(f"ok   image {image} (release.yml's ghcr.io push, version {version}), ./Stubs mounted, healthcheck {health.split()[-1]}, "
      "tests on plain swift with STUBD_URL after service_healthy, no build, no install, nothing mounted from outside")
