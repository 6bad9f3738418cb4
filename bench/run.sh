#!/usr/bin/env bash
# Runs BenchmarkMask and writes:
#   results/latest.txt     raw go test -bench output (gitignored)
#   results/benchstat.txt  benchstat with one column per implementation
#   REPORT.md, chart.svg   medians, targets and chart, by cmd/report
#
# Environment:
#   COUNT=10         runs of each benchmark (benchstat wants 10 for its tests)
#   BENCHTIME=0.5s   time per run
#   BENCH=regexp     benchmarks to run, as for go test -bench; default
#                    BenchmarkMask. Example: BENCH='Mask/workload=twitter-.*/impl=jsonmask'
#
# The full run (COUNT=10) takes a while: 15 workloads × 9 implementations ×
# 10 runs. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results

cmd=(go test -run '^$' -bench "${BENCH:-BenchmarkMask}" -count="${COUNT:-10}" -benchtime="${BENCHTIME:-0.5s}" -timeout 0)
# The same command, quoted for a reader, for the log and the report.
cmdline="go test -run '^\$' -bench '${BENCH:-BenchmarkMask}' -count=${COUNT:-10} -benchtime=${BENCHTIME:-0.5s} -timeout 0"
echo "+ $cmdline" >&2

# The raw file is written whole or not at all, so that a failed or interrupted
# run does not leave a half file behind for the report to read.
"${cmd[@]}" | tee results/latest.txt.tmp
mv results/latest.txt.tmp results/latest.txt

go tool benchstat -col /impl results/latest.txt > results/benchstat.txt
go run ./cmd/report -in results/latest.txt -benchstat results/benchstat.txt \
	-out REPORT.md -chart chart.svg -cmd "$cmdline"
