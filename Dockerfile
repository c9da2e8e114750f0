# Moreau's server image: moreaud, with the moreau command (health checks,
# debugging) and the robot files, on Debian bookworm.
#
#   deploy/container/build-image.sh         podman; makes debian:bookworm-slim
#                                            from Debian's packages when no
#                                            registry is reachable
#   docker build -t moreau .                 anywhere a registry is reachable
#
# Runs as user 10001; serves gRPC on 50051 and metrics on 9464 (docs/deploy.md).
# Build arguments: MOREAU_ISA, the -march target (x86-64-v3: AVX2 and FMA, the
# speed the benchmarks quote; x86-64-v2 for older machines); MOREAU_VERSION,
# MOREAU_REVISION, MOREAU_SOURCE, MOREAU_LICENSE for the labels;
# MOREAU_BUILD_JOBS, the compile jobs.

FROM debian:bookworm-slim AS build
# The build packages: the list scripts/setup.sh installs too.
COPY scripts/packages/ /tmp/packages/
RUN apt-get update \
 && sh /tmp/packages/names.sh /tmp/packages/build.txt \
    | DEBIAN_FRONTEND=noninteractive xargs apt-get install -y --no-install-recommends \
 && rm -rf /var/lib/apt/lists/*
ARG MOREAU_ISA=x86-64-v3
# Parallel compile jobs (empty: Ninja's default, one per core and two more).
ARG MOREAU_BUILD_JOBS=
# The compiler launcher (empty: none, every file compiled afresh).
ARG MOREAU_CCACHE=ccache
# ccache's folder: by default a cache mount, so that a rebuild after a change
# recompiles only what changed. build-image.sh mounts the host's ccache folder
# instead and names it here, with the host's locale (MOREAU_BUILD_ENV: ccache
# hashes LANG and LC_*), so that the files the host's build compiled are not
# compiled again.
ARG MOREAU_CCACHE_DIR=/root/.cache/ccache
ARG MOREAU_BUILD_ENV=
WORKDIR /src
COPY . .
# Only the two binaries, built in /src/build with ccache's paths relative to
# /src: the same compiler arguments as a host's build in its checkout's build/.
RUN --mount=type=cache,target=/root/.cache/ccache \
    export CCACHE_DIR="$MOREAU_CCACHE_DIR" CCACHE_BASEDIR=/src $MOREAU_BUILD_ENV \
 && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DMOREAU_ARCH_FLAGS="-march=${MOREAU_ISA}" -DCMAKE_CXX_COMPILER_LAUNCHER="${MOREAU_CCACHE}" \
 && cmake --build build --target moreaud moreau ${MOREAU_BUILD_JOBS:+-j "$MOREAU_BUILD_JOBS"} \
 && strip --strip-unneeded build/server/moreaud build/clients/cli/moreau

FROM debian:bookworm-slim
# Shared libraries only: no compiler, no -dev package.
COPY scripts/packages/names.sh scripts/packages/runtime.txt /tmp/packages/
RUN apt-get update \
 && sh /tmp/packages/names.sh /tmp/packages/runtime.txt \
    | DEBIAN_FRONTEND=noninteractive xargs apt-get install -y --no-install-recommends \
 && rm -rf /var/lib/apt/lists/* /tmp/packages \
 && install -d -o 10001 -g 10001 /var/lib/moreau
COPY --from=build /src/build/server/moreaud /src/build/clients/cli/moreau /usr/local/bin/
COPY models/ /usr/share/moreau/models/

ARG MOREAU_VERSION=0.1.0
ARG MOREAU_REVISION=unknown
ARG MOREAU_SOURCE=unknown
ARG MOREAU_LICENSE=NOASSERTION
ARG MOREAU_ISA=x86-64-v3
LABEL org.opencontainers.image.title="moreaud" \
      org.opencontainers.image.description="Moreau rigid-body simulation server (gRPC)" \
      org.opencontainers.image.version="${MOREAU_VERSION}" \
      org.opencontainers.image.revision="${MOREAU_REVISION}" \
      org.opencontainers.image.source="${MOREAU_SOURCE}" \
      org.opencontainers.image.licenses="${MOREAU_LICENSE}" \
      org.opencontainers.image.base.name="debian:bookworm-slim" \
      moreau.isa="${MOREAU_ISA}"

# A numeric user (Kubernetes' runAsNonRoot checks the number). /var/lib/moreau,
# owned by it, is where a --state-dir volume goes.
USER 10001:10001
WORKDIR /var/lib/moreau
EXPOSE 50051 9464
# The server `moreau remote …` talks to without --address (in `podman exec` and
# the health check): set it too when passing another --port.
ENV MOREAU_ADDRESS=127.0.0.1:50051
# moreau remote health: exit 0 while the health service reports SERVING.
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 \
  CMD ["moreau", "remote", "health", "--timeout-s", "4"]
# Exec form: moreaud is PID 1 and gets SIGTERM itself (it drains, then exits 0).
ENTRYPOINT ["moreaud", "--host", "0.0.0.0", "--port", "50051", "--metrics-port", "9464"]
CMD []
