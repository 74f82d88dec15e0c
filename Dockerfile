# stubd in a container: a small Debian image with one static-stdlib binary.
#
#   docker build -t stubd .
#   docker run --rm -p 127.0.0.1:8080:8080 stubd                        # serves the baked-in example Stubs/
#   docker run --rm -p 127.0.0.1:8080:8080 -v "$PWD/Stubs:/Stubs:ro" stubd   # serves your own Stubs/, hot-reloaded
#
# The image uses only the classic builder's features (no RUN --mount), so
# docker-compose v1 and plain `docker build` without BuildKit both build it.

# ---- build ------------------------------------------------------------------
# The toolchain the suite is tested on (scripts/test, .ci/run): Swift 6.3.1.
ARG SWIFT_IMAGE=swift:6.3.1-bookworm
FROM ${SWIFT_IMAGE} AS build

RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libmicrohttpd-dev libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Dependencies first, so the layer is cached until Package.swift (or
# Package.resolved, if present) changes. The glob matches both files.
COPY Package.* ./
RUN swift package resolve

# Package.swift declares targets under Tests/, Examples/ and Benchmarks/ as
# well. SwiftPM checks that every target's directory exists, even when it
# builds only one product, so those directories are copied too.
COPY Sources ./Sources
COPY Tests ./Tests
COPY Examples ./Examples
COPY Benchmarks/Sources ./Benchmarks/Sources
RUN swift build -c release --product stubd --static-swift-stdlib \
    && mkdir -p /staging \
    && cp "$(swift build -c release --show-bin-path)/stubd" /staging/stubd

# ---- runtime ----------------------------------------------------------------
FROM debian:bookworm-slim

# libmicrohttpd12: the HTTP engine. curl: the HEALTHCHECK (it also brings
# libcurl, which Foundation's networking links against). tzdata: quota windows
# in named time zones (timezone: America/New_York); bookworm-slim has it already,
# and naming it keeps that true.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libmicrohttpd12 libcurl4 ca-certificates curl tzdata \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system stubd \
    && useradd --system --gid stubd --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin stubd

COPY --from=build /staging/stubd /usr/local/bin/stubd

# A default catalog so the image answers something out of the box. Mount your
# own folder over it (-v ./Stubs:/Stubs:ro); --watch reloads it when it changes.
COPY Stubs /Stubs

# Fail the image build, not the first test run, if a shared library is missing
# or the baked-in Stubs/ do not load.
RUN stubd --help > /dev/null && stubd check --stubs /Stubs > /dev/null

USER stubd:stubd
EXPOSE 8080
# stubd finishes in-flight (and delayed) answers on SIGTERM, then exits 0.
STOPSIGNAL SIGTERM

# The admin API's health call is never counted as a hit and never limited by a
# quota. If you change --port, override this too.
HEALTHCHECK --interval=5s --timeout=2s --start-period=5s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/__stubd/health || exit 1

ENTRYPOINT ["stubd"]
# The server listens only on loopback by default. In a container it must
# listen on all interfaces, so that is stated here explicitly.
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--stubs", "/Stubs"]
