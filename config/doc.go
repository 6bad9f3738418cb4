// Package config reads the config files of `jsonmask serve`, the Envoy
// ext_proc server (jsonmask-extproc) and the Caddy module's JSON, and runs
// the serve / reload / drain loop that the commands share (SPEC G10, G11).
//
// # One route config, one strict parser
//
// [Route] is a request pattern and [MaskConfig], a mask and its options:
// the keys match, mask, mask_file, fields, wildcards, arrays, strict,
// drop_mismatched, trusted, statuses and sse_passthrough, for every
// program that masks by route. [DecodeStrict] is the one parser of these
// files: it refuses what encoding/json lets pass, a key given twice (the
// last would win: a second "mask" widens the mask), a key in another case
// ("STRICT" would set strict), and an unknown key (a typo must not
// silently disable a mask), each in one line that names the key and its
// place ("routes[1].strict"). [Load] and [Parse] read a [File] with it and
// also refuse limits out of range and an empty route list (unless
// [AllowNoRoutes]).
//
// # Limits
//
// [Limits] are the limits section: the body limits ([BodyLimits], which
// the Caddy module takes alone) and the proxy's and server's timeouts.
// Their defaults are gateway.Limits' (gateway.DefaultMaxBodyBytes, ...)
// and, for the server's own, [DefaultReadHeaderTimeout],
// [DefaultIdleTimeout] and [DefaultDrainTimeout]; zero or absent takes the
// default.
//
// # Serve, reload, drain
//
// [Run] drives a [Service], the command's listeners: a reload (SIGHUP)
// reads the config again and swaps it in whole, keeping the old one if the
// new one is bad and naming in a warning each setting that changes only on
// a restart ([RestartOnly]); a stop (SIGTERM, SIGINT) drains the requests
// in flight up to limits.drain_timeout, the service's health check saying
// so from the first moment.
package config
