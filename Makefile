# rypsok — build, test and measure. Every target works on a fresh clone with
# Go 1.26 and (for the race detector) gcc; .ci/run installs gcc if missing.

GO      ?= go
VERSION := $(shell cat VERSION)
# -trimpath and -buildvcs=false keep paths and checkout state out of the
# binary, so two clones of one commit build byte-identical binaries.
LDFLAGS := -s -w -buildid= -X main.version=$(VERSION)
BIN     := bin/rypsok

.PHONY: build test fuzz demo measure-memory bench clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=false -ldflags "$(LDFLAGS)" -o $(BIN) .

test:
	$(GO) vet ./...
	$(GO) test -race ./...

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

demo: build
	scripts/demo.sh

measure-memory: build
	scripts/measure-memory.sh

bench:
	$(GO) test -run XXX -bench . -benchmem -cpu 1 ./...

.PHONY: release cross

# The release files in dist/: make release VERSION=X.Y.Z (default: VERSION).
release:
	scripts/release.sh $(VERSION)

# Build and vet every release platform (GOOS/GOARCH); .ci/run runs it.
cross:
	scripts/release/cross.sh

clean:
	rm -rf bin
