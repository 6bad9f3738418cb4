package mcpproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask/toolresult"
)

// Config is what the proxy does to each tool's results (SPEC P2). The file
// form, which ParseConfig reads:
//
//	{"budget": 25000, "encoding": "o200k_base", "store": "DIR", "strict": false,
//	 "tools": {"NAME": {"response_mask": {…}, "budget": 7000, "arrays": true,
//	                    "strict": true, "instructions": false}}}
type Config struct {
	// Budget is the token budget of a tool without one of its own (SPEC
	// section 9); 0 turns budgets off. DefaultConfig and ParseConfig make
	// it toolresult.DefaultBudget unless the file says otherwise.
	Budget int
	// Encoding is the tokenizer's encoding: "o200k_base" ("" is the
	// default) or "cl100k_base".
	Encoding string
	// Store is where variables are kept: a directory or a URL (file://,
	// s3://, gs://, azblob://, mem://: toolresult.OpenStore, SPEC C15);
	// "" is toolresult's default, $TMPDIR/jsonmask-variables.
	Store string
	// Strict withholds, for every masked tool, a result whose payload the
	// mask would pass unmasked (SPEC B5): one that is not a JSON object (an
	// array root without Arrays, plaintext) or that has no JSON payload. It
	// becomes an error result instead.
	Strict bool
	// Query bounds query_variable (SPEC C13); zero fields are defaults.
	// The file form: "query": {"load": BYTES, "time": "10s", "output": BYTES,
	// "memory": BYTES}.
	Query toolresult.QueryLimits
	// VariableLocation makes a variable's note say where it lives (SPEC
	// C16): "variable_location": true.
	VariableLocation bool
	// Tools are the tools with a mask or a budget of their own, by name.
	Tools map[string]ToolConfig
}

// ToolConfig is one tool's entry.
type ToolConfig struct {
	// ResponseMask is the tool's response_mask (SPEC section 1), or nil.
	ResponseMask json.RawMessage
	// Budget is the tool's token budget; nil means the Config's, 0 turns it
	// off for this tool (its mask still applies).
	Budget *int
	// Arrays masks results whose root is an array too (SPEC B4).
	Arrays bool
	// Strict is Config.Strict for this tool alone (either turns it on).
	Strict bool
	// Instructions routes the result's display_instructions_for_model to
	// the model (SPEC C2), capped and counted in the budget. Off, the
	// default, the member is data like any other: the mask drops it unless
	// it names it. Needs a budget: with the budget off it is data.
	Instructions bool
}

// DefaultConfig is the configuration without a file: every tool gets the
// default budget, none a mask.
func DefaultConfig() *Config { return &Config{Budget: toolresult.DefaultBudget} }

// LoadConfig reads a configuration file. A relative store directory is
// taken relative to the file's directory.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return nil, err
	}
	if cfg.Store != "" && !filepath.IsAbs(cfg.Store) && !strings.Contains(cfg.Store, "://") {
		cfg.Store = filepath.Join(filepath.Dir(path), cfg.Store)
	}
	return cfg, nil
}

// ParseConfig reads a configuration in its JSON form. Unknown and repeated
// keys are errors, so that a typo cannot silently turn a mask off.
func ParseConfig(data []byte) (*Config, error) {
	cfg := DefaultConfig()
	var ps parser
	top, err := ps.members(data, span{0, len(data)}, false)
	if err == errShape {
		return nil, errors.New("jsonmask: config: not a JSON object")
	}
	if err != nil {
		return nil, fmt.Errorf("jsonmask: config: %s", message(err))
	}
	err = eachKey(top, "", func(m member, path string) error {
		v := data[m.val.start:m.val.end]
		switch m.key {
		case "budget":
			return decode(v, &cfg.Budget, path, m)
		case "encoding":
			return decode(v, &cfg.Encoding, path, m)
		case "store":
			return decode(v, &cfg.Store, path, m)
		case "strict":
			return decode(v, &cfg.Strict, path, m)
		case "query":
			return parseQueryLimits(&ps, data, m, &cfg.Query)
		case "variable_location":
			return decode(v, &cfg.VariableLocation, path, m)
		case "tools":
			tools, err := ps.members(data, m.val, true)
			if err != nil {
				return fmt.Errorf("jsonmask: config: %s must be an object, at offset %d", path, m.val.start)
			}
			cfg.Tools = map[string]ToolConfig{}
			return eachKey(tools, "tools.", func(tm member, path string) error {
				var tc ToolConfig
				fields, err := ps.members(data, tm.val, true)
				if err != nil {
					return fmt.Errorf("jsonmask: config: %s must be an object, at offset %d", path, tm.val.start)
				}
				err = eachKey(fields, path+".", func(f member, path string) error {
					v := data[f.val.start:f.val.end]
					switch f.key {
					case "response_mask":
						if string(v) != "null" {
							tc.ResponseMask = bytes.Clone(v)
						}
						return nil
					case "budget":
						tc.Budget = new(int)
						return decode(v, tc.Budget, path, f)
					case "arrays":
						return decode(v, &tc.Arrays, path, f)
					case "strict":
						return decode(v, &tc.Strict, path, f)
					case "instructions":
						return decode(v, &tc.Instructions, path, f)
					}
					return unknownKey(path, f)
				})
				cfg.Tools[tm.key] = tc
				return err
			})
		}
		return unknownKey(path, m)
	})
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// eachKey calls f for each member, with its path; a key seen twice is an
// error.
func eachKey(ms []member, prefix string, f func(m member, path string) error) error {
	seen := map[string]bool{}
	for _, m := range ms {
		path := prefix + m.key
		if seen[m.key] {
			return fmt.Errorf("jsonmask: config: %s given twice, at offset %d", path, m.start)
		}
		seen[m.key] = true
		if err := f(m, path); err != nil {
			return err
		}
	}
	return nil
}

func unknownKey(path string, m member) error {
	return fmt.Errorf("jsonmask: config: unknown key %s at offset %d", strconv.Quote(path), m.start)
}

// decode reads a member's value into v, an *int, *string or *bool.
func decode(raw []byte, v any, path string, m member) error {
	if err := json.Unmarshal(raw, v); err != nil {
		want := map[string]string{"*int": "an integer", "*string": "a string", "*bool": "true or false"}[fmt.Sprintf("%T", v)]
		return fmt.Errorf("jsonmask: config: %s must be %s, got %s at offset %d", path, want, raw, m.val.start)
	}
	return nil
}
