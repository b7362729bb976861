#!/usr/bin/env bash
# The release files: scripts/release.sh X.Y.Z (make release VERSION=X.Y.Z).
#
# Writes into dist/ (or $RELEASE_OUT):
#   rypsok-X.Y.Z-linux-amd64.tar.gz   rypsok-X.Y.Z-linux-arm64.tar.gz
#   rypsok-X.Y.Z-darwin-arm64.tar.gz  rypsok-X.Y.Z-windows-amd64.zip
#   rypsok-X.Y.Z-image-amd64.tar.gz   rypsok-X.Y.Z-image-arm64.tar.gz
#   SHA256SUMS                        (names all six)
# and, beside them, the unpacked binaries dist/<os>-<arch>/rypsok[.exe]
# (the Dockerfile copies dist/linux-<arch>/rypsok).
#
# Every file is reproducible: two runs on two clones of one commit, with the
# same Go toolchain and umoci, give byte-identical files. The binaries are
# static (CGO_ENABLED=0), built with -trimpath -buildvcs=false and an empty
# build id; the archives are written by scripts/release/pack with fixed
# headers; the images are OCI layouts built by umoci (Debian's package, which
# this script installs when it is missing) from the Linux binaries, a CA
# bundle from Debian's ca-certificates, and passwd/group entries for 65532,
# every time fixed at the Unix epoch.
#
# Environment:
#   RELEASE_OUT        output directory (default dist); emptied first
#   RELEASE_PLATFORMS  a subset of the platforms, for tests (default: all four)
#   RELEASE_IMAGES     0 to skip the images (default 1)
#   RELEASE_SELFCHECK  0 to skip the check of the files by deploy/'s tests
#   RELEASE_TOOLCHAIN_CHECK  0 to build with a Go other than go.mod's (tests)
#   CA_BUNDLE          the CA bundle put into the images
#                      (default /etc/ssl/certs/ca-certificates.crt)
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-}"
if ! printf '%s' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
  echo "usage: scripts/release.sh X.Y.Z   (a semantic version, no v prefix)" >&2
  exit 2
fi
out="${RELEASE_OUT:-dist}"
platforms="${RELEASE_PLATFORMS:-linux/amd64 linux/arm64 darwin/arm64 windows/amd64}"
images="${RELEASE_IMAGES:-1}"
ca_bundle="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
source_url="https://github.com/nabbisen/rypsok"

# The release toolchain is named in one place, the go line of go.mod: the
# binaries are byte-identical only when built by the same Go.
want_go="go$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod)"
have_go=$(go env GOVERSION)
if [ "$have_go" != "$want_go" ]; then
  if [ "${RELEASE_TOOLCHAIN_CHECK:-1}" != 0 ]; then
    echo "release: go.mod names $want_go, this is $have_go; release with $want_go (docs/releasing.md)" >&2
    exit 1
  fi
  echo "release: warning: go.mod names $want_go, this is $have_go" >&2
fi
echo "release: built with $have_go" >&2

case "$out" in
  "" | / | . | ./ | "$(pwd)" ) echo "release: RELEASE_OUT=$out would empty the repository" >&2; exit 2 ;;
esac

export TZ=UTC LC_ALL=C
export SOURCE_DATE_EPOCH=0
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Nothing in dist/ is committed: the directory ignores itself.
printf '*\n' > "$out/.gitignore"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -trimpath -buildvcs=false -o "$work/pack" ./scripts/release/pack

# --- binaries and archives -------------------------------------------------
for p in $platforms; do
  os=${p%/*}
  arch=${p#*/}
  exe=rypsok
  [ "$os" = windows ] && exe=rypsok.exe
  echo "release: building $os/$arch" >&2
  mkdir -p "$out/$os-$arch"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOFLAGS= \
    go build -trimpath -buildvcs=false \
      -ldflags "-s -w -buildid= -X main.version=$version" \
      -o "$out/$os-$arch/$exe" .
  name="rypsok-$version-$os-$arch"
  stage="$work/stage/$name"
  mkdir -p "$stage"
  cp "$out/$os-$arch/$exe" "$stage/$exe"
  cp LICENSE README.md CHANGELOG.md "$stage/"
  if [ "$os" = windows ]; then
    "$work/pack" -o "$out/$name.zip" -exec "$exe" "$stage"
  else
    "$work/pack" -o "$out/$name.tar.gz" -exec "$exe" "$stage"
  fi
done

# --- container images --------------------------------------------------------
ensure_umoci() {
  command -v umoci >/dev/null 2>&1 && return 0
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "release: installing umoci (Debian package)" >&2
    $SUDO apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq umoci >&2 || true
  fi
  command -v umoci >/dev/null 2>&1
}

build_image() { # arch
  local arch=$1 bin="$out/linux-$1/rypsok" tag="$version-$1"
  local layout="$work/image-$arch/rypsok" bundle="$work/bundle-$arch"
  local rootfs="$bundle/rootfs" created=1970-01-01T00:00:00Z rootless=""
  # umoci records owners as it finds them: as root, every file is chowned to
  # 0:0; otherwise --rootless maps this user to root in the layer.
  [ "$(id -u)" = 0 ] || rootless=--rootless
  rm -rf "$work/image-$arch" "$bundle"
  mkdir -p "$work/image-$arch"
  umoci init --layout "$layout"
  umoci new --image "$layout:$tag"
  umoci unpack $rootless --image "$layout:$tag" "$bundle" >/dev/null

  # The root file system: the binary, the CA bundle, the user 65532, the
  # configuration directory, an empty /tmp. No shell, no package manager.
  chmod 0755 "$rootfs"
  install -d -m 0755 "$rootfs/usr/local/bin" "$rootfs/etc/ssl/certs" \
    "$rootfs/etc/rypsok" "$rootfs/usr/share/doc/rypsok"
  install -d -m 1777 "$rootfs/tmp"
  install -m 0755 "$bin" "$rootfs/usr/local/bin/rypsok"
  install -m 0644 "$ca_bundle" "$rootfs/etc/ssl/certs/ca-certificates.crt"
  install -m 0644 LICENSE "$rootfs/usr/share/doc/rypsok/LICENSE"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' \
    > "$rootfs/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$rootfs/etc/group"
  chmod 0644 "$rootfs/etc/passwd" "$rootfs/etc/group"
  [ -n "$rootless" ] || chown -R 0:0 "$rootfs"
  find "$rootfs" -exec touch -h -d @0 {} +

  umoci repack $rootless --image "$layout:$tag" \
    --history.created "$created" --history.created_by "scripts/release.sh: the root file system" \
    --history.author "the rypsok authors" "$bundle"
  umoci config --image "$layout:$tag" --no-history \
    --created "$created" --author "the rypsok authors" \
    --os linux --architecture "$arch" \
    --config.user 65532:65532 \
    --config.workingdir / \
    --config.env PATH=/usr/local/bin \
    --config.env RYPSOK_CONFIG=/etc/rypsok/rypsok.toml \
    --config.env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    --config.entrypoint /usr/local/bin/rypsok \
    --config.cmd serve --config.cmd --transport --config.cmd http \
    --config.cmd --config --config.cmd /etc/rypsok/rypsok.toml \
    --config.exposedports 8737/tcp \
    --config.stopsignal SIGTERM \
    --config.label "org.opencontainers.image.title=rypsok" \
    --config.label "org.opencontainers.image.version=$version" \
    --config.label "org.opencontainers.image.source=$source_url" \
    --config.label "org.opencontainers.image.licenses=MIT" \
    --config.label "org.opencontainers.image.created=$created" \
    --manifest.annotation "org.opencontainers.image.version=$version" \
    --manifest.annotation "org.opencontainers.image.created=$created"
  umoci gc --layout "$layout"
  # docker load names the image from this annotation of index.json; podman
  # load from org.opencontainers.image.ref.name (umoci's tag).
  "$work/pack" -index-name "rypsok:$tag" "$layout/index.json"
  find "$work/image-$arch" -exec touch -h -d @0 {} +
  # The archive holds the layout's contents at its root (oci-layout,
  # index.json, blobs/), as docker load and podman load expect.
  ( cd "$layout" && "$work/pack" -o "$out/rypsok-$version-image-$arch.tar.gz" \
      blobs index.json oci-layout )
}

if [ "$images" != 0 ]; then
  if ! ensure_umoci; then
    echo "release: umoci is not installed and could not be installed; no images" >&2
    exit 1
  fi
  for p in $platforms; do
    case "$p" in linux/*) build_image "${p#*/}" ;; esac
  done
fi

# --- checksums -----------------------------------------------------------------
( cd "$out" && find . -maxdepth 1 -type f \( -name '*.tar.gz' -o -name '*.zip' \) \
    -printf '%f\n' | sort | xargs sha256sum > SHA256SUMS )

# --- the release checks itself ---------------------------------------------------
# deploy/'s tests read what was just built: every sum, every archive's fixed
# headers and layout, each binary's build settings (go version -m) and, for
# this machine's platform, its --version; each image's config and digests.
if [ "${RELEASE_SELFCHECK:-1}" != 0 ]; then
  CGO_ENABLED=0 RYPSOK_RELEASE_DIR="$out" RYPSOK_RELEASE_VERSION="$version" \
    go test -count=1 -run '^(TestReleaseFiles|TestImage)$' ./deploy/ >&2
fi
echo "release: $out" >&2
cat "$out/SHA256SUMS" >&2
