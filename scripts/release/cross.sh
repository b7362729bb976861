#!/usr/bin/env sh
# Builds the command and vets every package (tests included) for each
# release platform, so that a break that shows only on Windows or macOS
# (signals, file permissions of token_file, paths) fails CI on Linux.
# `make cross`; .ci/run runs it.
set -eu
cd "$(dirname "$0")/../.."
platforms="${RELEASE_PLATFORMS:-linux/amd64 linux/arm64 darwin/arm64 windows/amd64}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for p in $platforms; do
  echo "== cross: $p" >&2
  GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 go build -trimpath -buildvcs=false -o "$out/rypsok" .
  GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 go vet ./...
done
echo "cross: built and vetted $platforms" >&2
