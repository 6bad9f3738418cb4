package mcpproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/toolresult"
)

// Config is what the proxy does to each tool's results (SPEC P2). The file
// form, which ParseConfig reads:
//
//	{"budget": 25000, "encoding": "o200k_base", "store": "DIR", "strict": false,
//	 "variable_location": false,
//	 "query": {"load": BYTES, "time": "10s", "output": BYTES, "memory": BYTES},
//	 "tools": {"NAME": {"response_mask": {…}, "budget": 7000, "arrays": true,
//	                    "strict": true, "instructions": false},
//	           "OTHER": {"fields": "id,items(name)", "drop_mismatched": true},
//	           "THIRD": {"mask_file": "masks/third.json", "wildcards": true,
//	                     "trusted": true}}}
type Config struct {
	// Budget is the token budget of a tool without one of its own (SPEC
	// section 9); 0 turns budgets off. DefaultConfig and ParseConfig make
	// it toolresult.DefaultBudget unless the file says otherwise.
	Budget int `json:"budget"`
	// Encoding is the tokenizer's encoding: "o200k_base" ("" is the
	// default) or "cl100k_base".
	Encoding string `json:"encoding"`
	// Store is where variables are kept: a directory or a URL (file://,
	// s3://, gs://, azblob://, mem://: toolresult.OpenStore, SPEC C15);
	// "" is toolresult's default, $TMPDIR/jsonmask-variables.
	Store string `json:"store"`
	// Strict withholds, for every masked tool, a result whose payload the
	// mask would pass unmasked (SPEC B5): one that is not a JSON object (an
	// array root without Arrays, plaintext) or that has no JSON payload. It
	// becomes an error result instead.
	Strict bool `json:"strict"`
	// Query bounds query_variable (SPEC C13); zero fields are defaults.
	// The file form: "query": {"load": BYTES, "time": "10s", "output": BYTES,
	// "memory": BYTES}, each positive.
	Query toolresult.QueryLimits `json:"-"`
	// VariableLocation makes a variable's note say where it lives (SPEC
	// C16): "variable_location": true.
	VariableLocation bool `json:"variable_location"`
	// Tools are the tools with a mask or a budget of their own, by name.
	Tools map[string]ToolConfig `json:"tools"`
}

// ToolConfig is one tool's entry: a mask and its options, as a route of
// `jsonmask serve` has them (SPEC G11), and a budget. At most one of
// ResponseMask, MaskFile and Fields gives the mask; none, and the tool's
// results are not masked.
type ToolConfig struct {
	// ResponseMask is the tool's response_mask (SPEC section 1), or nil.
	ResponseMask json.RawMessage `json:"response_mask"`
	// MaskFile is a file that holds the mask as JSON, read by New;
	// LoadConfig makes it relative to the config file.
	MaskFile string `json:"mask_file"`
	// Fields is the mask in the text syntax of SPEC T1 ("id,user(name)").
	Fields string `json:"fields"`
	// Budget is the tool's token budget; nil means the Config's, 0 turns it
	// off for this tool (its mask still applies).
	Budget *int `json:"budget"`
	// Arrays masks results whose root is an array too (SPEC B4).
	Arrays bool `json:"arrays"`
	// Strict is Config.Strict for this tool alone (either turns it on).
	Strict bool `json:"strict"`
	// DropMismatched drops scalars met where the mask has an object
	// (SPEC A6).
	DropMismatched bool `json:"drop_mismatched"`
	// Trusted checks dropped parts for quoting and nesting only (SPEC V4).
	Trusted bool `json:"trusted"`
	// Wildcards reads the key "*" of a JSON mask as any other key (SPEC
	// T2); a fields mask always does.
	Wildcards bool `json:"wildcards"`
	// Instructions routes the result's display_instructions_for_model to
	// the model (SPEC C2), capped and counted in the budget. Off, the
	// default, the member is data like any other: the mask drops it unless
	// it names it. Needs a budget: with the budget off it is data.
	Instructions bool `json:"instructions"`
}

// DefaultConfig is the configuration without a file: every tool gets the
// default budget, none a mask.
func DefaultConfig() *Config { return &Config{Budget: toolresult.DefaultBudget} }

// LoadConfig reads a configuration file. A relative store directory and
// relative mask files are taken relative to the file's directory.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if cfg.Store != "" && !filepath.IsAbs(cfg.Store) && !strings.Contains(cfg.Store, "://") {
		cfg.Store = filepath.Join(dir, cfg.Store)
	}
	for name, tc := range cfg.Tools {
		if tc.MaskFile != "" && !filepath.IsAbs(tc.MaskFile) {
			tc.MaskFile = filepath.Join(dir, tc.MaskFile)
			cfg.Tools[name] = tc
		}
	}
	return cfg, nil
}

// configFile is the file form of a Config.
type configFile struct {
	Config
	Query struct {
		Load   *int64  `json:"load"`
		Time   *string `json:"time"`
		Output *int64  `json:"output"`
		Memory *int64  `json:"memory"`
	} `json:"query"`
}

// ParseConfig reads a configuration in its JSON form with the strict
// parser of SPEC G11 (the one of `jsonmask serve`): unknown keys, a key
// given twice, a key in another case, a tool named twice and a limit out
// of range are errors, each one line that names the key and its place, so
// that a typo cannot silently turn a mask off.
func ParseConfig(data []byte) (*Config, error) {
	if lead := bytes.TrimLeft(data, " \t\r\n"); len(lead) > 0 && lead[0] != '{' {
		return nil, errs.New("config: not a JSON object")
	}
	f := configFile{Config: *DefaultConfig()}
	if err := jsonwire.DecodeStrict(data, &f); err != nil {
		return nil, errs.Errorf("config: %w", err)
	}
	cfg := &f.Config
	if err := f.query(&cfg.Query); err != nil {
		return nil, errs.Errorf("config: %w", err)
	}
	if cfg.Budget < 0 {
		return nil, errs.Errorf("config: budget must be at least 0, got %d", cfg.Budget)
	}
	for name, tc := range cfg.Tools {
		if string(tc.ResponseMask) == "null" {
			tc.ResponseMask = nil
			cfg.Tools[name] = tc
		}
		if err := tc.check(); err != nil {
			return nil, errs.Errorf("config: tools.%s.%w", name, err)
		}
	}
	return cfg, nil
}

// query checks the query limits and sets l from them.
func (f *configFile) query(l *toolresult.QueryLimits) error {
	for _, b := range []struct {
		name string
		v    *int64
		to   *int64
	}{{"load", f.Query.Load, &l.Load}, {"output", f.Query.Output, &l.Output}, {"memory", f.Query.Memory, &l.Memory}} {
		if b.v == nil {
			continue
		}
		if *b.v <= 0 {
			return fmt.Errorf("query.%s must be a positive number of bytes, got %d", b.name, *b.v)
		}
		*b.to = *b.v
	}
	if f.Query.Time != nil {
		d, err := time.ParseDuration(*f.Query.Time)
		if err != nil || d <= 0 {
			return fmt.Errorf("query.time must be a positive duration such as \"10s\", got %q", *f.Query.Time)
		}
		l.Time = d
	}
	return nil
}

// check refuses a budget out of range and two masks, naming the key after
// "tools.NAME.".
func (tc *ToolConfig) check() error {
	if tc.Budget != nil && *tc.Budget < 0 {
		return fmt.Errorf("budget must be at least 0, got %d", *tc.Budget)
	}
	n := 0
	for _, set := range []bool{tc.ResponseMask != nil, tc.MaskFile != "", tc.Fields != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return errors.New(`response_mask: give one of "response_mask", "mask_file" and "fields", not two`)
	}
	return nil
}

// compile compiles the mask that tc names, with its options as
// `jsonmask serve` compiles a route's (config.MaskConfig.Compile), or
// returns nil if it names none. Its errors begin with the key, after
// "tools.NAME.", and wrap the compiler's *jsonmask.MaskError.
func (tc *ToolConfig) compile() (*jsonmask.Mask, error) {
	if err := tc.check(); err != nil {
		return nil, err
	}
	opts := []jsonmask.Option{
		jsonmask.WithArrays(tc.Arrays), jsonmask.WithDropMismatched(tc.DropMismatched),
		jsonmask.WithTrustedInput(tc.Trusted), jsonmask.WithWildcards(tc.Wildcards),
	}
	var (
		m   *jsonmask.Mask
		err error
		key string
	)
	switch {
	case tc.Fields != "":
		key = "fields"
		m, err = jsonmask.CompileFields(tc.Fields, opts...)
	case tc.MaskFile != "":
		key = "mask_file " + tc.MaskFile
		var src []byte
		if src, err = os.ReadFile(tc.MaskFile); err == nil {
			m, err = jsonmask.Compile(src, opts...)
		} else if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // the path is named already
		}
	case tc.ResponseMask != nil:
		key = "response_mask"
		m, err = jsonmask.Compile(bytes.TrimSpace(tc.ResponseMask), opts...)
	}
	if err != nil {
		return nil, &keyError{key, err}
	}
	return m, nil
}

// keyError is err said of a key: "<key>: <err's errs.Detail>".
type keyError struct {
	key string
	err error
}

func (e *keyError) Error() string {
	return e.key + ": " + errs.Detail(e.err)
}

func (e *keyError) Unwrap() error { return e.err }
