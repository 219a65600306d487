#!/bin/bash
# Interleaved old/new benchmark rounds. Usage: run.sh ROUNDS
cd /tmp/house-bench
R=${1:-6}
bench() { # ver pkg
  local v=$1 p=$2 dir
  if [ $v = old ]; then dir=/work/wt/old234647d; else dir=/work/main; fi
  case $p in
    tool) pat='^(BenchmarkAttach|BenchmarkClickNestedOOPIF|BenchmarkClickByRef|BenchmarkGetTextDispatch|BenchmarkExpectTextHolds)$'; bt=20x;;
    page) pat='^(BenchmarkSnapshotTextLarge|BenchmarkSnapshotJSONLarge|BenchmarkGetText|BenchmarkGetStateSelector|BenchmarkSinceAfterClick)$'; bt=30x;;
    input) pat='^(BenchmarkClick|BenchmarkTypeText)$'; bt=10x;;
    cdp) pat='^BenchmarkEvaluateOverhead$'; bt=3x;;
  esac
  (cd $dir/internal/$p && timeout 900 /tmp/house-bench/$v-$p.test -test.run '^$' -test.bench "$pat" -test.benchtime $bt -test.count 1 -test.benchmem) >> $v.txt 2>>err.txt
}
for r in $(seq 1 $R); do
  echo "round $r $(date -u +%T) $(cat /proc/loadavg)" >> progress.txt
  for p in tool page input cdp; do
    if [ $((r % 2)) = 1 ]; then bench old $p; bench new $p; else bench new $p; bench old $p; fi
  done
done
echo "done $(date -u +%T) $(cat /proc/loadavg)" >> progress.txt
