#!/usr/bin/env bash
# Peak memory of the CLI masking a 768 MiB document piped on stdin (issue 3):
# a 384 MiB kept string, then a 384 MiB dropped array. Prints /usr/bin/time -v's
# figures; the CLI must stay under 48 MiB whatever the document's size.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o /tmp/jsonmask-rss ./cmd/jsonmask
generate() {
	printf '{"keep":"'
	head -c 402653184 /dev/zero | tr '\0' 'a'
	printf '","drop":['
	# yes dies of SIGPIPE when head has enough: not a failure (pipefail
	# would otherwise end the function here, before the closing '1]}').
	yes '1,' | tr -d '\n' | head -c 402653184 || true
	printf '1]}'
}
out=$(generate | /usr/bin/time -v /tmp/jsonmask-rss -mask '{"keep":true}' 2>/tmp/jsonmask-rss.time | wc -c) || true
echo "bytes out: $out (want 402653196: the kept string, its member and a newline)"
grep -E 'Maximum resident|Elapsed|Exit status' /tmp/jsonmask-rss.time
grep -q 'Exit status: 0' /tmp/jsonmask-rss.time && [ "$out" -eq 402653196 ]
