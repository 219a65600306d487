#!/usr/bin/env bash
# compare.sh BASE [HEAD] — the Go benchmarks of a package at two commits,
# interleaved (base, head, base, head, ...) so that a change in the
# machine's load falls on both, then benchstat.
#   PKG=./internal/tool BENCH='ClickByRef|GetTextDispatch' ROUNDS=6 BENCHTIME=20x bench/compare/compare.sh 621ae0c
# Writes base.txt, head.txt and benchstat.txt under bench/results/compare-<base>-<head>/
# and prints the load average beside each round (say it with the numbers).
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:?usage: compare.sh BASE [HEAD]}
head=${2:-HEAD}
pkg=${PKG:-./internal/tool}
bench=${BENCH:-.}
rounds=${ROUNDS:-6}
benchtime=${BENCHTIME:-20x}
GOBIN=$(go env GOPATH)/bin
[ -x "$GOBIN/benchstat" ] || go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
b=$(git rev-parse --short "$base"); h=$(git rev-parse --short "$head")
out=bench/results/compare-$b-$h
mkdir -p "$out"
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" 2>/dev/null; git worktree remove --force "$work/head" 2>/dev/null; rm -rf "$work"' EXIT
for side in base head; do
  rev=$b; [ "$side" = head ] && rev=$h
  git worktree add -q --detach "$work/$side" "$rev"
  (cd "$work/$side" && go test -c -o "$work/$side.test" "$pkg")
done
: >"$out/base.txt"; : >"$out/head.txt"
dir=$(cd "$work/base" && go list -f '{{.Dir}}' "$pkg")
for i in $(seq 1 "$rounds"); do
  for side in base head; do
    echo "round $i $side, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    (cd "${dir/$work\/base/$work/$side}" && "$work/$side.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" -test.count 1) \
      | grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >>"$out/$side.txt"
  done
done
"$GOBIN/benchstat" "$out/base.txt" "$out/head.txt" | tee "$out/benchstat.txt"
