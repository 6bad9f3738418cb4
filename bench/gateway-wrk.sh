#!/usr/bin/env bash
# The gateway's figures of issue 26 (item 13), for REPORT.md's gateway
# section: jsonmask serve against a tuned plain httputil.ReverseProxy (with
# and without a pool of copy buffers), and
# Caddy + jsonmask against Caddy alone, with wrk, 16 connections, 1 KB,
# 100 KB and 1 MB bodies, identity and gzip, ROUNDS interleaved rounds of
# DURATION each: requests per second and the proxy's CPU time per request,
# beside Mask.Copy's CPU on the same body.
#   results/gateway-wrk.txt        serve / plain proxies
#   results/gateway-wrk-caddy.txt  Caddy + jsonmask / Caddy
# Needs wrk (apt-get install wrk). Loopback only.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p results
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd .. && go build -o "$tmp/jsonmask" ./cmd/jsonmask)
(cd ../contrib/caddy && go build -o "$tmp/caddy" ./cmd/caddy)
go build -o "$tmp/gatewaywrk" ./cmd/gatewaywrk
"$tmp/gatewaywrk" -bin "$tmp/jsonmask" -rounds "${ROUNDS:-3}" -duration "${DURATION:-5s}" | tee results/gateway-wrk.txt
"$tmp/gatewaywrk" -caddy "$tmp/caddy" -rounds "${ROUNDS:-3}" -duration "${DURATION:-5s}" | tee results/gateway-wrk-caddy.txt
