#!/usr/bin/env bash
# Makes the base image debian:bookworm-slim from Debian's packages, for
# machines that reach Debian's archive but no container registry: a minbase
# debootstrap of bookworm, trimmed as the official slim image is (no apt
# caches or package lists, no docs, man pages or locales, and dpkg set to
# leave them out of every later install), imported into podman under the name
# a pull would give it, docker.io/library/debian:bookworm-slim.
#
#   deploy/container/base-image.sh [--force]
#
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian). Does
# nothing when the image exists, unless --force. Needs root (debootstrap).
set -euo pipefail

readonly name=docker.io/library/debian:bookworm-slim
readonly mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [[ "${1:-}" != "--force" ]] && podman image exists "$name"; then
  echo "base-image: $name exists"
  exit 0
fi

root="$(mktemp -d /var/tmp/moreau-base.XXXXXX)"
trap 'rm -rf "$root"' EXIT

echo "base-image: debootstrap --variant=minbase bookworm from $mirror (a few minutes)"
debootstrap --variant=minbase --components=main bookworm "$root" "$mirror" |
  grep -E '^I: (Retrieving Release|Validating Packages|Installing core|Unpacking the base|Configuring the base|Base system installed)' || true
[[ -x "$root/usr/bin/apt-get" ]] || { echo "base-image: debootstrap failed" >&2; exit 1; }

# dpkg and apt settings of the slim image: every later apt-get install in an
# image built on this one leaves out docs, man pages and locales and cleans
# its package cache.
cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'CONF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
CONF
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'CONF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CONF
echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
cat >"$root/etc/apt/sources.list" <<CONF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
CONF

# What the slim image leaves out.
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$root"/usr/share/{man,groff,info,lintian,linda}/* "$root"/usr/share/locale/*
rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/var/log/* "$root"/tmp/*
rm -f "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old

echo "base-image: importing as $name"
tar --numeric-owner -C "$root" -c . |
  podman import --quiet --change 'CMD ["bash"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'LABEL org.opencontainers.image.description="debian:bookworm-slim made by debootstrap"' \
    - "$name" >/dev/null
podman image ls "$name"
