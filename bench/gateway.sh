#!/usr/bin/env bash
# The gateway's figures (issue 17), for the gateway section of REPORT.md:
#   results/gateway.txt            raw BenchmarkGateway output, COUNT passes
#   results/gateway-benchstat.txt  benchstat, one column per proxy design
#   results/gateway-load.txt       time to first byte, and the peak RSS of
#                                  jsonmask serve, identity and gzip
#                                  (cmd/gatewayload)
#
# Environment: COUNT=6 passes, BENCHTIME=1s per benchmark and pass,
# N=256 responses in flight and SIZE=67108864 bytes each for the RSS run.
# The RSS run moves N*SIZE bytes (16 GiB) through loopback: a few minutes.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" .
(cd .. && go build -o "$tmp/jsonmask" ./cmd/jsonmask)
echo "+ for pass in \$(seq ${COUNT:-6}); do ./bench.test -test.run '^\$' -test.bench BenchmarkGateway -test.count=1 -test.benchtime=${BENCHTIME:-1s}; done" >&2
: > results/gateway.txt.tmp
for ((k = 0; k < ${COUNT:-6}; k++)); do
	"$tmp/bench.test" -test.run '^$' -test.bench BenchmarkGateway -test.count=1 -test.benchtime="${BENCHTIME:-1s}" -test.timeout=0 | tee -a results/gateway.txt.tmp
done
mv results/gateway.txt.tmp results/gateway.txt
go tool benchstat -col /impl results/gateway.txt > results/gateway-benchstat.txt
cat results/gateway-benchstat.txt
{
	go run ./cmd/gatewayload -ttfb -size "${SIZE:-67108864}"
	go run ./cmd/gatewayload -rss -bin "$tmp/jsonmask" -n "${N:-256}" -size "${SIZE:-67108864}"
	go run ./cmd/gatewayload -rss -gzip -bin "$tmp/jsonmask" -n "${N:-256}" -size "${SIZE:-67108864}"
} | tee results/gateway-load.txt
