# understudy — the same commands on a laptop and in CI.
#   make demo   install Chromium if missing, build, run the demo tour
#   make test   install what the tests need, then vet, cross-builds, staticcheck and go test -race
#   make bench  run the benchmarks (Go benches; a 30-minute soak, SOAK_DURATION=...; peer benches under bench/)
#   make release  static binaries for linux/darwin/windows × amd64/arm64, SBOMs, checksums, npm packages in dist/

GO          ?= go
CHROMIUM    ?= /usr/lib/chromium/chromium
SOAK_DURATION ?= 30m
GOBIN       ?= $(shell $(GO) env GOPATH)/bin
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := $(GOBIN)/staticcheck
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Version (server.json's, or RELEASE_VERSION) and commit (git) are stamped by
# the flags tools/release computes for itself too: one place for make build,
# make release and the SBOMs.
LDFLAGS      = $(shell $(GO) run ./tools/release -print-ldflags $(if $(RELEASE_VERSION),-version $(RELEASE_VERSION)))

.PHONY: all build demo test chromium grid-deps tools vet crossbuild lint unit fmt bench clean release release-check

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/understudy ./cmd/understudy

# Chromium from Debian when the real binary is missing.
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		echo "installing Chromium with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi
	@"$(CHROMIUM)" --version

# Selenium Grid 4 for the grid tests (internal/grid/gridtest): Java 17 and
# chromedriver from Debian, the standalone jar from the committed lockfile.
# chromium-driver pins the chromium package to its own version, so this can
# upgrade the system Chromium (README says so).
grid-deps:
	@if ! command -v java >/dev/null || ! command -v chromedriver >/dev/null; then \
		echo "installing Java 17 and chromedriver with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless chromium-driver >/dev/null; \
	fi
	cd internal/grid/gridtest/selenium && npm ci --no-audit --no-fund
	@java -version 2>&1 | head -1; chromedriver --version

demo: chromium build
	./bin/understudy demo --browser "$(CHROMIUM)"

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

tools: $(STATICCHECK)

fmt:
	gofmt -w $$(git ls-files '*.go')

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

# Process control lives behind internal/browser's per-OS files; this keeps
# every package, and its tests (vet type-checks them), building for the
# other systems we ship.
# (vet type-checks every package with its tests; release-check links the
# binaries for all six platforms.)
crossbuild:
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...

lint: tools
	$(STATICCHECK) ./...

unit:
	$(GO) test -race -count=1 -p 1 -timeout 25m ./...

# The release, built as a user gets it: every platform, SBOMs, checksums
# and npm packages (version from server.json unless RELEASE_VERSION is set);
# nothing is published.
RELEASE_VERSION ?=
release:
	CGO_ENABLED=0 $(GO) run ./tools/release -out dist $(if $(RELEASE_VERSION),-version $(RELEASE_VERSION))

# CI's check of the release: unpack the linux/amd64 archive and run the demo
# with that binary.
release-check: chromium release
	rm -rf dist/check && mkdir -p dist/check
	tar -xzf dist/understudy_*_linux_amd64.tar.gz -C dist/check
	dist/check/understudy_*_linux_amd64/understudy --version
	dist/check/understudy_*_linux_amd64/understudy demo --browser "$(CHROMIUM)"

test: chromium grid-deps tools vet crossbuild lint release-check unit

bench: chromium grid-deps build
	$(GO) test -tags gridhub -count=1 -run 'TestGridHubTwoNodes' -timeout 30m ./internal/tool/
	UNDERSTUDY_BENCH_GRID=1 $(GO) test -run '^$$' -bench 'GridVsLocal' -benchtime 3x -timeout 30m ./internal/tool/
	$(GO) test -run '^$$' -bench . -skip 'RelayPeers|ClickWithOtherSessions' -benchtime 20x ./...
	$(GO) test -run '^$$' -bench 'RelayPeers|ClickWithOtherSessions' -benchtime 1x -timeout 30m ./internal/relay/ ./internal/tool/
	CGO_ENABLED=0 $(GO) run ./bench/coldstart
	$(GO) run ./bench/soak -duration $(SOAK_DURATION) -chromium $(CHROMIUM)
	@if [ -x bench/run.sh ]; then bench/run.sh; fi

clean:
	rm -rf bin dist
