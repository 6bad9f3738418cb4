package config

import "github.com/jsonmask/jsonmask/internal/jsonwire"

// DecodeStrict decodes data, one JSON value, into v, a pointer to a struct
// with json tags, with the one strict parser of the route configs (SPEC
// G11), which internal/jsonwire holds so that `jsonmask mcp` (mcpproxy,
// which config imports) reads its config with it too: a key given twice, a
// key in another case and an unknown key are errors that name the key and
// its place. It is here for the programs outside this module that read a
// route config, the Caddy module's JSON among them.
func DecodeStrict(data []byte, v any) error { return jsonwire.DecodeStrict(data, v) }
