package gateway

import (
	"errors"
	"strings"
)

// ErrBadPath is wrapped by the error for a request path that the gateway
// refuses with 400 (SPEC G8): an encoded slash or backslash (%2F, %5C), a
// backslash, a NUL, or bad percent-encoding. Such a path could name a masked
// route to a lenient upstream and another route to the gateway.
var ErrBadPath = errors.New("refused path")

// pathError is a refused path: what is wrong and where.
type pathError struct {
	what   string
	offset int
}

func (e *pathError) Error() string {
	return "jsonmask: gateway: " + e.what + " in the request path at offset " + itoa(int64(e.offset))
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
// (SPEC G8: "/v1/items/" is "/v1/items"), without the parameters that some
// servers strip from a segment (";jsessionid=..."), and in lower case
// unless caseSensitive.
func matchPath(clean string, caseSensitive bool) string {
	if !strings.HasPrefix(clean, "/") {
		return clean
	}
	var b []byte
	if strings.IndexByte(clean, ';') >= 0 {
		b = make([]byte, 0, len(clean))
		for i := 0; i < len(clean); i++ {
			if clean[i] == ';' {
				for i < len(clean) && clean[i] != '/' {
					i++
				}
				if i == len(clean) {
					break
				}
			}
			b = append(b, clean[i])
		}
	} else {
		b = []byte(clean)
	}
	if len(b) > 1 && b[len(b)-1] == '/' {
		b = b[:len(b)-1]
	}
	if !caseSensitive {
		lowerASCII(b)
	}
	return string(b)
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
