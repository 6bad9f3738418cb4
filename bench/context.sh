#!/usr/bin/env bash
# The measurements of issue 19: what toolresult (SPEC section 9) costs. Writes
# results/context/ (gitignored); the figures go by hand into the section
# "Tool responses for a model" of REPORT.md, after the marker that
# cmd/report keeps.
#
#   small.txt       BenchmarkContextDecision (the passthrough decision at the
#                   default budget: tokens counted), BenchmarkContextCorpus,
#                   BenchmarkTokenizer (MB/s of the tokenizer alone)
#   large.txt       BenchmarkContextLarge: the variable route on 100 MiB
#                   against Append, without and with the mask
#   large-stat.txt  benchstat of large.txt, one column per implementation
#   rss.txt         cmd/ctxrss: peak RSS of the variable route on 1 GiB
#   cli.txt         jsonmask context on conversation_items.json, timed
#   tokenized.txt   tokens the tokenizer itself tokenizes for a count with
#                   the default budget as its limit (toolresult's test)
#   instructions.txt instructions per byte of the variable route and of
#                   Append under callgrind (if valgrind is installed): the
#                   difference between runs on 24 MiB and on 8 MiB, so that
#                   start-up and the model text cancel
#
# Environment: COUNT=5 passes of each benchmark, interleaved as in run.sh;
# RSS_SIZE=1073741824 bytes for ctxrss; CLI_RUNS=10.
set -euo pipefail
cd "$(dirname "$0")"
out=results/context
mkdir -p "$out"
count=${COUNT:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go test -c -o "$tmp/bench.test" .
go build -o "$tmp/ctxrss" ./cmd/ctxrss
go build -o "$tmp/jsonmask" ../cmd/jsonmask
{ date -u '+date %Y-%m-%d %H:%M UTC'; go version; grep -m1 'model name' /proc/cpuinfo || true; nproc; } > "$out/env.txt"

echo "+ small benchmarks, $count passes" >&2
: > "$out/small.txt"
for ((k = 0; k < count; k++)); do
	"$tmp/bench.test" -test.run '^$' -test.bench 'BenchmarkContextDecision|BenchmarkContextCorpus|BenchmarkTokenizer' \
		-test.benchtime=3x -test.count=1 | tee -a "$out/small.txt"
done

echo "+ large benchmarks, $count passes" >&2
: > "$out/large.txt"
for ((k = 0; k < count; k++)); do
	JSONMASK_BENCH_LARGE=1 "$tmp/bench.test" -test.run '^$' -test.bench 'BenchmarkContextLarge' \
		-test.benchtime=2x -test.count=1 -test.timeout=0 | tee -a "$out/large.txt"
done
go tool benchstat -col /impl "$out/large.txt" > "$out/large-stat.txt"

echo "+ peak RSS" >&2
: > "$out/rss.txt"
for limit in unset 64MiB; do
	for mask in none decision-fields; do
		echo "== mask=$mask GOMEMLIMIT=$limit" >> "$out/rss.txt"
		if [ "$limit" = unset ]; then
			env -u GOMEMLIMIT "$tmp/ctxrss" -size "${RSS_SIZE:-1073741824}" -mask "$mask" >> "$out/rss.txt"
		else
			GOMEMLIMIT=$limit "$tmp/ctxrss" -size "${RSS_SIZE:-1073741824}" -mask "$mask" >> "$out/rss.txt"
		fi
	done
done
cat "$out/rss.txt"

echo "+ jsonmask context, ${CLI_RUNS:-10} runs" >&2
store="$tmp/store"
cmd="jsonmask context -store $store testdata/conversation_items.json"
echo "# $cmd; seconds: wall user sys; max RSS KB" > "$out/cli.txt"
for ((k = 0; k < ${CLI_RUNS:-10}; k++)); do
	/usr/bin/time -f '%e %U %S %M' -a -o "$out/cli.txt" "$tmp/jsonmask" context -store "$store" testdata/conversation_items.json > /dev/null
done
cat "$out/cli.txt"

echo "+ tokens tokenized by a count with a limit" >&2
(cd .. && go test -count=1 -run 'TestCountEarlyExit$' -v ./toolresult) | grep 'tokenized' > "$out/tokenized.txt"
cat "$out/tokenized.txt"

if command -v valgrind > /dev/null; then
	echo "+ instructions per byte, callgrind" >&2
	: > "$out/instructions.txt"
	for impl in append toolresult; do
		for mask in none decision-fields; do
			ir=()
			for size in 8388608 25165824; do
				ir+=("$(GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
					"$tmp/ctxrss" -impl "$impl" -mask "$mask" -size "$size" -dir "$tmp/cg" 2>&1 | grep -oP 'Collected : \K[0-9]+')")
			done
			echo "$impl $mask ${ir[*]}" | awk '{printf "%s mask=%s %.1f instructions/byte\n", $1, $2, ($4-$3)/16777216}' >> "$out/instructions.txt"
		done
	done
	cat "$out/instructions.txt"
fi
