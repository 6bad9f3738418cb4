package fallback

// ValueOptions are the masking options that apply to Go values.
type ValueOptions struct {
	Arrays         bool // SPEC B4, for a value that encodes to an array
	DropMismatched bool // SPEC A6
	Strict         bool // SPEC B5: a value that would pass through is a *NotObjectError
	MaxDepth       int  // SPEC V2: nesting of the value; 0 for tokenizer.DefaultMaxDepth
}
