package gateway

import (
	"errors"
	"strings"

	"github.com/jsonmask/jsonmask/internal/errs"
)

// ErrBadPath is wrapped by the error for a request path that the gateway
// refuses with 400 (SPEC G8): an encoded slash or backslash (%2F, %5C), a
// backslash, a NUL, or bad percent-encoding. Such a path could name a masked
// route to a lenient upstream and another route to the gateway.
var ErrBadPath = errors.New("refused path")

// pathError is a refused request: what is wrong and where in its path (-1
// for the request as a whole).
type pathError struct {
	what   string
	offset int
}

func (e *pathError) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: " (errs.Detail).
func (e *pathError) Detail() string {
	if e.offset < 0 {
		return "gateway: " + e.what + " in the request"
	}
	return "gateway: " + e.what + " in the request path at offset " + itoa(int64(e.offset))
}

func (e *pathError) Unwrap() error { return ErrBadPath }

// cleanPath is the canonical form of an escaped request path (SPEC G8):
// percent-encoding of unreserved characters decoded (other escapes kept, in
// upper case), repeated slashes merged, dot segments removed (RFC 3986
// 5.2.4, also when written %2E). A trailing slash is kept: the upstream
// receives clean, with its case; matchPath is what routes are matched on.
// A path that does not start with '/' ("*", or empty for CONNECT) is
// returned as it is.
func cleanPath(escaped string) (clean string, err error) {
	if !strings.HasPrefix(escaped, "/") {
		return escaped, nil
	}
	if isClean(escaped) {
		return escaped, nil
	}
	return cleanPathSlow(escaped)
}

// isClean reports whether cleanPath would return the escaped path p as it
// is, without looking at it byte by byte twice: p has no escape, no
// backslash or NUL, no ';' (parameters, which a dot segment may hide
// behind), no empty segment and no segment that starts with a dot.
// FuzzCleanPath compares it with cleanPathSlow.
func isClean(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '%', '\\', 0, ';':
			return false
		case '/':
			if i+1 < len(p) && (p[i+1] == '/' || p[i+1] == '.') {
				return false
			}
		}
	}
	return true
}

// cleanPathSlow is cleanPath for a path that is not clean already.
func cleanPathSlow(escaped string) (clean string, err error) {
	// Pass 1: escapes, byte by byte, into b.
	b := make([]byte, 0, len(escaped))
	for i := 0; i < len(escaped); i++ {
		c := escaped[i]
		switch {
		case c == '%':
			if i+2 >= len(escaped) || !isHex(escaped[i+1]) || !isHex(escaped[i+2]) {
				return "", &pathError{"bad percent-encoding", i}
			}
			v := unhex(escaped[i+1])<<4 | unhex(escaped[i+2])
			switch {
			case v == '/':
				return "", &pathError{"encoded slash (%2F)", i}
			case v == '\\':
				return "", &pathError{"encoded backslash (%5C)", i}
			case v == 0:
				return "", &pathError{"NUL (%00)", i}
			case v == '%':
				// A server that decodes twice reads "%2569" as "i".
				return "", &pathError{"encoded percent sign (%25)", i}
			case isUnreserved(v):
				b = append(b, v)
			default:
				b = append(b, '%', upperHex[v>>4], upperHex[v&15])
			}
			i += 2
		case c == '\\':
			return "", &pathError{"backslash", i}
		case c == 0:
			return "", &pathError{"NUL", i}
		default:
			b = append(b, c)
		}
	}
	// Pass 2: segments. out holds "/seg/seg"; a dot segment or a final
	// slash leaves a trailing slash, as RFC 3986's remove_dot_segments does.
	out := make([]byte, 0, len(b))
	trailing := false
	for seg := range strings.SplitSeq(string(b[1:]), "/") {
		// Some servers read "..;x" as "..": so does the gateway.
		name, _, _ := strings.Cut(seg, ";")
		switch name {
		case "", ".":
			trailing = true
		case "..":
			if k := strings.LastIndexByte(string(out), '/'); k >= 0 {
				out = out[:k]
			}
			trailing = true
		default:
			out = append(out, '/')
			out = append(out, seg...)
			trailing = false
		}
	}
	if len(out) == 0 || trailing {
		out = append(out, '/')
	}
	return string(out), nil
}

// matchPath is what a clean path is matched on: without its trailing slash
// (SPEC G8: "/v1/items/" is "/v1/items"), each segment without the
// parameters that some servers strip from it (";jsessionid=...", also
// written "%3B") and without encoded whitespace at its ends (which some
// servers trim), empty segments dropped, and in lower case unless
// caseSensitive.
func matchPath(clean string, caseSensitive bool) string {
	if !strings.HasPrefix(clean, "/") {
		return clean
	}
	if isMatchPath(clean, caseSensitive) {
		return clean
	}
	return matchPathSlow(clean, caseSensitive)
}

// matchPathSlow is matchPath for a path that must change.
func matchPathSlow(clean string, caseSensitive bool) string {
	var b []byte
	if strings.IndexByte(clean, ';') < 0 && strings.IndexByte(clean, '%') < 0 {
		b = []byte(clean)
	} else {
		b = make([]byte, 0, len(clean))
		for seg := range strings.SplitSeq(clean[1:], "/") {
			if i := strings.IndexByte(seg, ';'); i >= 0 {
				seg = seg[:i]
			}
			if i := indexFold(seg, "%3B"); i >= 0 {
				seg = seg[:i]
			}
			seg = trimEncodedSpace(seg)
			if seg == "" {
				continue
			}
			b = append(append(b, '/'), seg...)
		}
		if len(b) == 0 || clean[len(clean)-1] == '/' {
			b = append(b, '/')
		}
	}
	if len(b) > 1 && b[len(b)-1] == '/' {
		b = b[:len(b)-1]
	}
	if !caseSensitive {
		lowerASCII(b)
	}
	return string(b)
}

// isMatchPath reports whether matchPath would return the clean path p as
// it is: it has no ';' or escape, no trailing slash (but "/"), and no
// upper-case letter unless caseSensitive.
func isMatchPath(p string, caseSensitive bool) bool {
	if len(p) > 1 && p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == ';', c == '%':
			return false
		case 'A' <= c && c <= 'Z' && !caseSensitive:
			return false
		}
	}
	return true
}

// trimEncodedSpace removes the escapes of whitespace (%09 to %0D, %20) at
// both ends of a segment.
func trimEncodedSpace(seg string) string {
	isSpace := func(s string) bool {
		return len(s) == 3 && s[0] == '%' && (s[1] == '2' && s[2] == '0' ||
			s[1] == '0' && (s[2] == '9' || s[2] >= 'A' && s[2] <= 'D' || s[2] >= 'a' && s[2] <= 'd'))
	}
	for len(seg) >= 3 && isSpace(seg[:3]) {
		seg = seg[3:]
	}
	for len(seg) >= 3 && isSpace(seg[len(seg)-3:]) {
		seg = seg[:len(seg)-3]
	}
	return seg
}

// indexFold is strings.Index for an ASCII needle, without case.
func indexFold(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// nonASCII returns the offset of the first non-ASCII character of a clean
// path, raw or percent-encoded, or -1.
func nonASCII(clean string) int {
	for i := 0; i < len(clean); i++ {
		c := clean[i]
		if c >= 0x80 || c == '%' && i+1 < len(clean) && clean[i+1] >= '8' {
			return i
		}
	}
	return -1
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// isUnreserved reports whether c is an unreserved character of RFC 3986
// 2.3, whose percent-encoding means the same as the character itself.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

const upperHex = "0123456789ABCDEF"
