#!/usr/bin/env bash
# Instructions per byte of masking, per workload, counted by callgrind: the
# same from run to run on a noisy machine, so two versions of the code can be
# compared (run it before and after a change).
#   ./instructions.sh [default|trusted|stream] [WORKLOAD-SUBSTRING ...]
# Needs valgrind. Valgrind 3.19 does not emulate AVX-512 and hides it from
# CPUID, so under it the tokenizer runs its AVX2 and pure-Go paths: trusted
# mode's AVX-512 kernel is measured only by wall clock (go test -bench, A/B in
# one run). A run used to lose one of its three iterations now and then (a
# count of exactly two thirds): the command now makes a first pass, not
# counted, and each workload is still counted twice and the larger count kept.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-default}
shift || true
[ $# -gt 0 ] || set -- twitter/decision twitter/keep twitterescaped citm/perf citm/keep canada/drop canada/keep \
	github apache google update mesh conversation-items/ conversation-items-ndjson flow
bin=$(mktemp /tmp/jsonmask-instructions.XXXXXX) # one per run: two worktrees may count at once
trap 'rm -f "$bin"' EXIT
go build -o "$bin" ./cmd/instructions
for w in "$@"; do
	best=0
	for attempt in 1 2; do
		out=$(GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
			--callgrind-out-file=/dev/null --toggle-collect='main.appendOnce' --toggle-collect='main.copyOnce' \
			"$bin" "$w" "$mode" 2>&1)
		ir=$(echo "$out" | grep -oP 'Collected : \K[0-9]+')
		size=$(echo "$out" | grep -oP '^[a-z0-9/-]+ \K[0-9]+$' | paste -sd+ | bc)
		best=$(python3 -c "print(max($best, $ir/(3*$size)))")
	done
	printf '%-28s %7.2f instructions/byte\n' "$w" "$best"
done
