#!/usr/bin/env sh
# Installs, from Debian's packages, what deploy/'s tests use when it is
# missing: umoci (builds the image), podman and runc (load and run it),
# systemd (systemd-analyze verify). Nothing here is required: each test
# skips, saying why, when its tool could not be installed.
set -u
missing=""
command -v umoci >/dev/null 2>&1 || missing="$missing umoci"
command -v podman >/dev/null 2>&1 || missing="$missing podman"
command -v runc >/dev/null 2>&1 || missing="$missing runc"
command -v systemd-analyze >/dev/null 2>&1 || missing="$missing systemd"
[ -n "$missing" ] || exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-tools: no apt-get; deploy/'s tests that need$missing will skip" >&2
  exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "ci-tools: installing$missing" >&2
$SUDO apt-get update -qq >/dev/null 2>&1 || true
for pkg in $missing; do
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null 2>&1 ||
    echo "ci-tools: $pkg could not be installed; the tests that need it will skip" >&2
done
exit 0
