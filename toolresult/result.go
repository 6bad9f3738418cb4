package toolresult

import (
	"encoding/json"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/schema"
)

// Route is what became of a tool's response (SPEC C3 to C5).
type Route string

// The routes.
const (
	// Passthrough: structured data within the budget enters the context as
	// it is, masked (C3).
	Passthrough Route = "passthrough"
	// Variable: structured data over the budget is stored as a variable; the
	// model gets a note, its schema, a preview and what the preview leaves
	// out (C5).
	Variable Route = "variable"
	// Plaintext: data that is not a JSON object or array enters the context
	// whole, whatever its size (C4).
	Plaintext Route = "plaintext"
)

// Result is what a tool's response becomes before a model sees it.
type Result struct {
	Route Route
	// Text is the model text (C9): the data (passthrough), the text
	// (plaintext), or the note, compact schema, preview and omissions
	// (variable).
	Text string
	// Instructions are the display_instructions_for_model values taken out
	// of the data (C2), joined by newlines; "" when there were none.
	Instructions string
	// Content is the data as it enters the context: the masked JSON
	// (passthrough), the text (plaintext), or the preview (variable).
	Content []byte
	// Variable names the stored data (variable route only).
	Variable *StoredVariable
	// Schema is the schema inferred from all of the data (variable route only).
	Schema *schema.Schema
	// SchemaDepth is the depth the schema was rendered at in Text (0: whole).
	SchemaDepth int
	// Omitted lists every cut the preview makes (variable route only).
	Omitted []Omission
	// Note is what Text says about the data (variable and plaintext routes).
	Note string
	// Hints are advice for the tool's author (C4, C11).
	Hints []Hint
	// Tokens are the exact token counts.
	Tokens Tokens
	// OverBudget reports that even the smallest model text (the schema cut
	// to depth 1, an empty preview) is over the budget (C9), or that a
	// plaintext is.
	OverBudget bool
}

// StoredVariable is a variable in a Store.
type StoredVariable struct {
	Name   string `json:"name"`
	Path   string `json:"path,omitempty"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Omission is one cut of the preview (C8): at Pointer, Kept of Total items
// of an array, members of an object, or characters of a string.
type Omission struct {
	Pointer string `json:"pointer"`
	Kind    string `json:"kind"` // "items", "members" or "chars"
	Kept    int    `json:"kept"`
	Total   int    `json:"total"`
}

// Hint is advice about the tool's response, at a JSON Pointer ("" for the
// whole).
type Hint struct {
	Pointer string `json:"pointer"`
	Hint    string `json:"hint"`
}

// Tokens are exact token counts (C1): the budget, the model text, the
// instructions.
type Tokens struct {
	Budget       int `json:"budget"`
	Context      int `json:"context"`
	Instructions int `json:"instructions"`
}

// ModelText is what enters the model's context (C9, C2): the instructions,
// if there are any, a blank line, then Text. The MCP proxy's rewritten
// results and jsonmask context -format text give it.
func (r *Result) ModelText() string {
	if r.Instructions == "" {
		return r.Text
	}
	return r.Instructions + "\n\n" + r.Text
}

// MarshalJSON writes the result in the shape of SPEC C12; members that do
// not apply to the route are absent.
func (r *Result) MarshalJSON() ([]byte, error) {
	b := []byte(`{"route":`)
	b = strconv.AppendQuote(b, string(r.Route))
	tok, _ := json.Marshal(r.Tokens)
	b = append(append(b, `,"tokens":`...), tok...)
	if r.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = jsonwire.AppendQuote(b, r.Instructions)
	}
	b = append(b, `,"content":`...)
	if r.Route == Plaintext {
		b = jsonwire.AppendQuote(b, string(r.Content))
	} else {
		b = append(b, jsonwire.Trim(r.Content)...)
	}
	if r.Variable != nil {
		v, _ := json.Marshal(r.Variable)
		b = append(append(b, `,"variable":`...), v...)
	}
	if r.Schema != nil {
		b = append(append(b, `,"schema":`...), r.Schema.JSON()...)
	}
	if r.Route == Variable {
		o, _ := json.Marshal(r.Omitted)
		if r.Omitted == nil {
			o = []byte("[]")
		}
		b = append(append(b, `,"omitted":`...), o...)
	}
	if r.Note != "" {
		b = append(b, `,"note":`...)
		b = jsonwire.AppendQuote(b, r.Note)
	}
	if len(r.Hints) > 0 {
		h, _ := json.Marshal(r.Hints)
		b = append(append(b, `,"hints":`...), h...)
	}
	return append(b, '}'), nil
}
