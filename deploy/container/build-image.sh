#!/usr/bin/env bash
# Builds the server image from this repository's Dockerfile with podman:
# localhost/moreau:latest, also tagged localhost/moreau:src-HASH, HASH being a
# digest of the build context's files and the build arguments. When an image
# with that tag exists it is the image of these very sources: it is tagged
# latest again and nothing is built. When debian:bookworm-slim is neither
# present nor pullable, base-image.sh first makes it from Debian's packages.
#
#   deploy/container/build-image.sh [--isa ISA] [--jobs N] [--image NAME]
#
#   --isa ISA     the -march target (default x86-64-v3)
#   --jobs N      parallel compile jobs inside the build (default: one per core)
#   --image NAME  the image name (default localhost/moreau:latest)
#
# The hash is taken before the build: leave the tree alone while it builds, or
# the tag names sources the image was not built from.
#
# When the host has ccache, its cache folder is mounted into the build, so
# that what the host's build compiled (scripts/build.sh: same Debian compiler,
# same flags when the host's MOREAU_ARCH_FLAGS is -march=ISA) is not compiled
# again; the image is the same either way.
#
# Prints podman's progress (the build's steps and the compile's [n/N] lines);
# the last line is "build-image: NAME IMAGE_ID".
set -euo pipefail
cd "$(dirname "$0")/../.."

isa=x86-64-v3
jobs=
image=localhost/moreau:latest
while (($#)); do
  case "$1" in
    --isa) isa="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --image) image="$2"; shift 2 ;;
    *) echo "usage: $0 [--isa ISA] [--jobs N] [--image NAME]" >&2; exit 2 ;;
  esac
done

readonly base=docker.io/library/debian:bookworm-slim
if ! podman image exists "$base"; then
  echo "build-image: pulling $base"
  if ! timeout 120 podman pull -q "$base" >/dev/null 2>&1; then
    echo "build-image: no registry reachable; making $base from Debian's packages"
    bash deploy/container/base-image.sh
  fi
fi

version="$(sed -n 's/^project(moreau VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
source_url="$(git remote get-url origin 2>/dev/null || echo unknown)"
build_args=(
  --build-arg "MOREAU_ISA=$isa"
  --build-arg "MOREAU_VERSION=$version"
  --build-arg "MOREAU_REVISION=$revision"
  --build-arg "MOREAU_SOURCE=$source_url"
)

# The build context's files: git's view of the tree (tracked and untracked,
# minus .gitignore's build trees), else every file outside .git and build*/.
context_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard
  else
    find . \( -path ./.git -o -path './build*' \) -prune -o -type f -print0
  fi
}
hash="$(
  {
    context_files | sort -z | while IFS= read -r -d '' f; do
      [[ -f "$f" ]] && printf '%s\0' "$f"
    done | xargs -0 -r sha256sum
    podman image inspect --format '{{.Id}}' "$base"
    printf '%s\n' "${build_args[@]}"
  } | sha256sum | cut -c1-16
)"
# The host's ccache folder and locale (ccache hashes LANG and LC_*), not part
# of the hash: they change how long the build takes, not what it makes.
ccache_args=()
if command -v ccache >/dev/null; then
  ccache_dir="$(ccache -k cache_dir)"
  mkdir -p "$ccache_dir"
  locale_env="$(env | grep -E '^(LANG|LC_ALL|LC_CTYPE|LC_MESSAGES)=' | tr '\n' ' ' || true)"
  ccache_args=(-v "$ccache_dir:/ccache" --build-arg MOREAU_CCACHE_DIR=/ccache
               --build-arg "MOREAU_BUILD_ENV=$locale_env")
fi

repository="${image%:*}"
source_tag="$repository:src-$hash"

if podman image exists "$source_tag"; then
  echo "build-image: $source_tag exists (built from these sources); tagging $image"
  podman tag "$source_tag" "$image"
else
  echo "build-image: building $source_tag (ISA $isa${jobs:+, $jobs jobs})"
  started=$SECONDS
  podman build --isolation=chroot --network=host --format docker --layers \
    "${build_args[@]}" "${ccache_args[@]}" ${jobs:+--build-arg "MOREAU_BUILD_JOBS=$jobs"} \
    -t "$source_tag" -t "$image" -f Dockerfile .
  echo "build-image: built in $((SECONDS - started)) s"
fi
echo "build-image: $image $(podman image inspect --format '{{.Id}}' "$image" | cut -c1-12)"
