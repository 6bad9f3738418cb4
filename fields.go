package jsonmask

import (
	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/errs"
)

// CompileFields compiles a mask written in the text syntax of Google APIs'
// fields parameter and of the json-mask library (SPEC T1):
//
//	id,status,items(id,price),owner/name
//
// is the JSON mask
//
//	{"id": true, "status": true, "items": {"id": true, "price": true}, "owner": {"name": true}}
//
// "a,b" names fields, "a/b/c" is a path, "a(b,c)" a selection inside a, and
// "*" stands for every key that has no entry of its own at its level (T2), in
// every text mask. Blanks around names are ignored; "\" escapes
// , / ( ) * \ and a blank inside a name. Paths into one field merge
// ("a/b,a/c" is "a(b,c)"), and a field kept whole and also selected into
// ("a,a/b") is kept whole. A text mask that does not parse (unbalanced
// parentheses, an empty name, a trailing comma) fails with a *MaskError that
// gives its offset in text (T3).
func CompileFields(text string, opts ...Option) (*Mask, error) {
	c, err := config{}.with(append(opts[:len(opts):len(opts)], WithWildcards(true)))
	if err != nil {
		return nil, err
	}
	prog, err := compile.CompileFields(text, compile.Options{MaxDepth: c.MaxDepth, Wildcards: true})
	if err != nil {
		return nil, convertMask(err)
	}
	return newMask(prog, c), nil
}

// MustCompileFields is like CompileFields but panics if the mask does not
// compile. It is meant for masks written in the program's source.
func MustCompileFields(text string, opts ...Option) *Mask {
	m, err := CompileFields(text, opts...)
	if err != nil {
		panic(err)
	}
	return m
}

// WithWildcards, when on, makes Compile read the key "*" of a JSON mask as
// the wildcard (SPEC T2): it matches every key at its level that has no
// entry of its own, which wins. A "*" key with an escape ("\u002a") is the
// same key (M5). Text masks (CompileFields) always read "*" so. It says how
// the mask is read, so Mask.With cannot change it. Default: off; "*" is an
// ordinary key.
//
// Memory stays bounded by the window with wildcards too: a kept key that
// crosses windows is written out as it comes. One exception: under
// WithDropMismatched, a key longer than 256 bytes (and than 6 bytes per byte
// of the longest key of the mask) that a wildcard with a nested mask matches
// across windows is held whole until its value shows whether it is kept;
// WithMaxTokenSize bounds it.
func WithWildcards(on bool) Option {
	return func(c *config) error { c.wildcards = on; return nil }
}

var errWildcardsWith = errs.New("With: WithWildcards says how a mask is read; give it to Compile")

// MarshalJSON returns the mask as a JSON mask (SPEC M1) that compiles to the
// same mask, compact, with keys in the order the mask first wrote them: the
// JSON form of a text mask, for instance. A wildcard is written as the key
// "*", which is one when compiled WithWildcards(true). A mask that holds both
// a wildcard and a key named "*" (the text mask "*,\*") has no JSON form: it
// fails with a *MaskError. Options are not part of it.
func (m *Mask) MarshalJSON() ([]byte, error) {
	b, err := m.prog.AppendJSON(nil)
	if err != nil {
		return nil, &MaskError{msg: prefix + err.Error()}
	}
	return b, nil
}
