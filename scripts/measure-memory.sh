#!/usr/bin/env sh
# make measure-memory: rypsok serve at rest and with four 5 MiB pages (then
# four 10 MiB pages, the ceiling of fetch.max_bytes) fetched at once from
# four loopback hosts, against the estimate of rypsok check; then the same
# with PDFs (docs/pdf.md), and with 1 MiB PDFs whose one page decodes to
# 7 MiB of text.
set -eu
cd "$(dirname "$0")/.."
go run ./scripts/measure-memory -bin bin/rypsok -page-mib 5 -runs 5
go run ./scripts/measure-memory -bin bin/rypsok -page-mib 9.9 -runs 5
go run ./scripts/measure-memory -bin bin/rypsok -page-mib 5 -runs 5 -pdf pages
go run ./scripts/measure-memory -bin bin/rypsok -page-mib 9.9 -runs 5 -pdf pages
go run ./scripts/measure-memory -bin bin/rypsok -page-mib 1 -runs 5 -pdf dense
