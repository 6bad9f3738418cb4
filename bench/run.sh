#!/usr/bin/env bash
# Runs BenchmarkMask and writes:
#   results/latest.txt     raw go test -bench output (gitignored)
#   results/benchstat.txt  benchstat with one column per implementation
#   REPORT.md, chart.svg   medians, targets and chart, by cmd/report
#
# Environment:
#   COUNT=10         runs of each benchmark, one per pass (benchstat wants 10
#                    for its tests)
#   BENCHTIME=0.5s   time per run
#   BENCH=regexp     benchmarks to run, as for go test -bench; default
#                    BenchmarkMask. Example: BENCH='Mask/workload=twitter-.*/impl=jsonmask'
#   TAGS=simdjson    build tags; simdjson adds the limit:simdjson column
#                    (needs cgo, g++ and libsimdjson-dev: apt-get install
#                    g++ libsimdjson-dev)
#
# The full run (COUNT=10) takes a while: 15 workloads × 9 implementations ×
# 10 passes. Run it on a machine as quiet as you have.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results

# The runs are taken in passes: each pass runs every benchmark once, and the
# passes repeat COUNT times. On a shared machine a noisy minute then costs
# one run of a few benchmarks, which the medians shrug off, rather than all
# the runs of one benchmark, as -count would (it runs them back to back).
bin="$(mktemp -d)/bench.test"
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -tags "${TAGS:-}" -c -o "$bin" .
pass=("$bin" -test.run '^$' -test.bench "${BENCH:-BenchmarkMask}" -test.count=1 -test.benchtime="${BENCHTIME:-0.5s}" -test.timeout=0)
# The same commands, quoted for a reader, for the log and the report.
cmdline="go test -tags '${TAGS:-}' -c -o bench.test . && for pass in \$(seq ${COUNT:-10}); do ./bench.test -test.run '^\$' -test.bench '${BENCH:-BenchmarkMask}' -test.count=1 -test.benchtime=${BENCHTIME:-0.5s}; done"
echo "+ $cmdline" >&2

# The raw file is written whole or not at all, so that a failed or interrupted
# run does not leave a half file behind for the report to read.
: > results/latest.txt.tmp
for ((k = 0; k < ${COUNT:-10}; k++)); do
	"${pass[@]}" | tee -a results/latest.txt.tmp
done
mv results/latest.txt.tmp results/latest.txt

go tool benchstat -col /impl results/latest.txt > results/benchstat.txt
go run ./cmd/report -in results/latest.txt -benchstat results/benchstat.txt \
	-out REPORT.md -chart chart.svg -cmd "$cmdline"
