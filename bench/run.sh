#!/usr/bin/env bash
# bench/run.sh — understudy side by side with peer MCP servers on one Chromium
# and one page (bench/peers). `make bench` runs it after the Go benchmarks.
#
#   bench/run.sh                  install the pinned peers if needed, build, run
#   bench/run.sh -n 40            more calls per cell; any flag goes to bench/peers
#   bench/run.sh -only understudy,devtools
#
# Needs node ≥ 20.19 and npm (chrome-devtools-mcp's floor) and Chromium
# (/usr/lib/chromium/chromium, or $UNDERSTUDY_CHROMIUM). Peers come from
# bench/package-lock.json; no browser is downloaded. The report is printed
# and written to bench/results/peers-latest.md (and .json); then the task
# benchmark (bench/peers -tasks) to bench/results/tasks-latest.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "bench/run.sh: node and npm are needed for the peer servers (apt-get install -y nodejs npm)" >&2
	exit 1
fi
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
	echo "bench/run.sh: node $(node --version) is too old: chrome-devtools-mcp needs ≥ 20.19" >&2
	exit 1
fi

# Install the peers when they are missing or the lockfile changed since.
if [ ! -f bench/node_modules/.package-lock.json ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
	echo "bench/run.sh: npm ci in bench/"
	(cd bench && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

GO="${GO:-go}"
CGO_ENABLED=0 "$GO" build -trimpath -o bin/understudy ./cmd/understudy
CGO_ENABLED=0 "$GO" build -trimpath -o bin/bench-peers ./bench/peers
bin/bench-peers -bin bin/understudy -bench-dir bench "$@"
# The task benchmark (issue 30): six agent tasks per server, judged from the
# fixture's log; written to bench/results/tasks-latest.md.
exec bin/bench-peers -tasks -bin bin/understudy -bench-dir bench -wait-load 0
