#!/usr/bin/env sh
# make demo: the tutorial session against a loopback stand-in, offline.
set -eu
cd "$(dirname "$0")/.."
exec go run ./scripts/demo -bin bin/rypsok
