#!/usr/bin/env sh
# Runs every fuzz target of the module for a short, fixed time each
# (default 20s; `make fuzz FUZZTIME=2m` for longer).
set -eu
cd "$(dirname "$0")/.."
t="${1:-20s}"
status=0
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "== $pkg $target ($t)"
    go test -run XXX -fuzz "^${target}\$" -fuzztime "$t" "$pkg" || status=1
  done
done
exit $status
