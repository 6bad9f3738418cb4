package toolresult

import (
	"errors"
	"strings"

	"github.com/itchyny/gojq"
)

// runtimeMessage is gojq's message for a runtime error, with whatever may
// come from the data left out (SPEC C13: no error quotes data). gojq quotes
// the values an operation failed on (`expected an object but got: string
// ("…")`), and error(v) raises a value that may be data. So a message keeps
// only its words that gojq's messages are made of, and those that are
// identifiers of the program (function and field names); every other run of
// characters (quoted strings, numbers, brackets) becomes "…". The value of
// error(v) is shown only when it is a string written in the program.
func runtimeMessage(err error, prog string) string {
	var ve gojq.ValueError
	if errors.As(err, &ve) {
		if s, ok := ve.Value().(string); ok && s != "" && strings.Contains(prog, s) {
			return "error: " + s
		}
		return "error(...) raised a value, which is not shown since it may come from the data"
	}
	return redact(err.Error(), prog)
}

// redact keeps the words of msg that gojq's messages use or that the program
// holds as identifiers (outside quotes), and spaces and the punctuation
// `:;,()/@`; anything else becomes "…", once per run.
func redact(msg, prog string) string {
	words := programWords(prog)
	var b strings.Builder
	cut, quoted := false, false
	for i := 0; i < len(msg); {
		c := msg[i]
		if quoted || c == '"' {
			// A quoted string is a value's: all of it goes, up to the
			// closing quote (or the message's end).
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = !quoted
			}
			if !cut {
				b.WriteString("…")
				cut = true
			}
			i++
			continue
		}
		if isWordByte(c) {
			j := i
			for j < len(msg) && isWordByte(msg[j]) {
				j++
			}
			w := msg[i:j]
			if messageWords[w] || words[w] && !isDigit(w[0]) {
				b.WriteString(w)
				cut = false
			} else if !cut {
				b.WriteString("…")
				cut = true
			}
			i = j
			continue
		}
		switch c {
		case ' ', ':', ';', ',', '(', ')', '/', '@':
			b.WriteByte(c)
			if c != ' ' {
				cut = false
			}
		default:
			if !cut {
				b.WriteString("…")
				cut = true
			}
		}
		i++
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// programWords returns the words of the program outside its string
// literals: its identifiers (function, field and variable names) and
// keywords.
func programWords(prog string) map[string]bool {
	words := map[string]bool{}
	inStr := false
	for i := 0; i < len(prog); {
		c := prog[i]
		switch {
		case inStr && c == '\\':
			i += 2
			continue
		case c == '"':
			inStr = !inStr
		case !inStr && isWordByte(c):
			j := i
			for j < len(prog) && isWordByte(prog[j]) {
				j++
			}
			words[prog[i:j]] = true
			i = j
			continue
		}
		i++
	}
	return words
}

// messageWords are the words of gojq's runtime error messages, and of the
// Go errors they wrap (strconv, regexp, time).
var messageWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		expected an a object but got array cannot iterate over index should not be
		negative too large repeat string result for key number indexing length mismatch
		input s is not allowed function defined applied to error halt flatten depth of
		seconds out range format including too many variable values provided bound label
		invalid path against on iterating query json divide by modulo null boolean
		gojq Iter add subtract multiply negate and the with as in at from into
		strconv ParseFloat ParseInt parsing syntax value regexp Compile regular expression
		missing argument repetition operator time parse date end start implode
		split test match capture sub gsub ascii tojson fromjson tonumber tostring
		keys has contains inside ltrimstr rtrimstr startswith endswith join
		type unexpected character EOF literal while invalid_syntax
	`) {
		m[w] = true
	}
	return m
}()
