package schema

import (
	"bytes"
	"net/url"
	"strings"
)

// String formats (SPEC C7), as bits. Each check is at least as strict as the
// format's RFC, so that a validator that asserts formats accepts every string
// the schema says has one.
const (
	fDateTime uint8 = 1 << iota
	fDate
	fUUID
	fEmail
	fURI
)

var formatNames = [...]struct {
	bit  uint8
	name string
}{{fDateTime, "date-time"}, {fDate, "date"}, {fUUID, "uuid"}, {fEmail, "email"}, {fURI, "uri"}}

// formatsOf returns the format s has, or 0. A string has at most one: a
// date is 10 bytes and a date-time at least 20, both without '@' or a
// letter first; a uuid is hexadecimal digits and '-'; an email has an '@'
// and no ':' before it; a URI begins with a scheme and ':'.
func formatsOf(s []byte) uint8 {
	switch {
	case len(s) == 0:
		return 0
	case isDate(s):
		return fDate
	case isDateTime(s):
		return fDateTime
	case isUUID(s):
		return fUUID
	case isEmail(s):
		return fEmail
	case isURI(s):
		return fURI
	}
	return 0
}

// hasFormat reports whether s has the format f, a single bit: formatsOf(s)
// == f, checking f alone (a string has at most one format).
func hasFormat(f uint8, s []byte) bool {
	switch f {
	case fDate:
		return isDate(s)
	case fDateTime:
		return isDateTime(s)
	case fUUID:
		return isUUID(s)
	case fEmail:
		return isEmail(s)
	case fURI:
		return isURI(s)
	}
	return false
}

func digits(s []byte) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func num2(s []byte) int { return int(s[0]-'0')*10 + int(s[1]-'0') }

// isDate: RFC 3339 full-date, YYYY-MM-DD, a real day (as time.Parse with
// the layout "2006-01-02" finds it, without its allocations).
func isDate(s []byte) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !digits(s[:4]) || !digits(s[5:7]) || !digits(s[8:]) {
		return false
	}
	y, m, d := num2(s[:2])*100+num2(s[2:4]), num2(s[5:7]), num2(s[8:])
	return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(m, y)
}

// daysIn returns the days of month m of year y, in the proleptic Gregorian
// calendar.
func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isDateTime: RFC 3339 date-time with an upper-case T, seconds below 60,
// an optional fraction, and Z or a numeric offset.
func isDateTime(s []byte) bool {
	if len(s) < 20 || s[10] != 'T' || !isDate(s[:10]) {
		return false
	}
	t := s[11:]
	if len(t) < 9 || t[2] != ':' || t[5] != ':' || !digits(t[:2]) || !digits(t[3:5]) || !digits(t[6:8]) {
		return false
	}
	if num2(t[:2]) > 23 || num2(t[3:5]) > 59 || num2(t[6:8]) > 59 {
		return false
	}
	t = t[8:]
	if t[0] == '.' {
		k := 1
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		if k == 1 {
			return false
		}
		t = t[k:]
	}
	switch {
	case len(t) == 1 && t[0] == 'Z':
		return true
	case len(t) == 6 && (t[0] == '+' || t[0] == '-') && t[3] == ':' && digits(t[1:3]) && digits(t[4:]):
		return num2(t[1:3]) <= 23 && num2(t[4:]) <= 59
	}
	return false
}

// isUUID: 8-4-4-4-12 hexadecimal digits.
func isUUID(s []byte) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isEmail: a plain address: a dot-atom local part of letters, digits and
// ._%+- (no leading, trailing or double dot), '@', and a host name of at
// least two labels.
func isEmail(s []byte) bool {
	if len(s) > 254 {
		return false
	}
	at := -1
	for i, c := range s {
		if c == '@' {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at < 1 || at > 64 {
		return false
	}
	local := s[:at]
	if local[0] == '.' || local[len(local)-1] == '.' {
		return false
	}
	for i, c := range local {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
		if !ok || c == '.' && local[i-1] == '.' {
			return false
		}
	}
	return isHostName(s[at+1:], 2)
}

// isHostName: at least min labels of letters, digits and inner hyphens, each
// at most 63 bytes, the last not all digits.
func isHostName(h []byte, min int) bool {
	if len(h) == 0 || len(h) > 253 {
		return false
	}
	labels, start := 0, 0
	for i := 0; i <= len(h); i++ {
		if i < len(h) && h[i] != '.' {
			c := h[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
			continue
		}
		l := h[start:i]
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		if i == len(h) && digits(l) {
			return false
		}
		labels++
		start = i + 1
	}
	return labels >= min
}

// isURI: an absolute http or https URL with a host name, and only
// characters that a URI may hold unencoded.
func isURI(s []byte) bool {
	if !uriChars(s) {
		return false
	}
	if ok, sure := plainURI(s); sure {
		return ok
	}
	return parsedURI(s)
}

// uriChars reports whether s is at most 1024 bytes of characters that a URI
// may hold unencoded.
func uriChars(s []byte) bool {
	if len(s) > 1024 {
		return false
	}
	for _, c := range s {
		if !uriByte[c] {
			return false
		}
	}
	return true
}

// uriByte holds the bytes that uriChars allows: printable ASCII but for
// space, '"', '<', '>', '\\', '^', '`', '{', '|' and '}'.
var uriByte = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune("\"<>\\^`{|}", c)
	}
	return t
}()

// parsedURI is isURI of a string of the characters it allows, by url.Parse.
func parsedURI(s []byte) bool {
	u, err := url.Parse(string(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.User != nil {
		return false
	}
	host := u.Hostname()
	if port := u.Port(); port != "" && (!digits([]byte(port)) || len(port) > 5) {
		return false
	}
	return isHostName([]byte(host), 1)
}

// plainURI decides isURI without url.Parse (and its allocations) for a
// string of the characters isURI allows, in the common cases. url.Parse
// finds the scheme http or https only in a string that begins with "http:"
// or "https:", in any case, and a host only after "//". Where an authority
// of letters, digits, '.' and '-', with at most one ':' (before a port),
// follows, ended by the first '/', '?' or '#', and every '%' after it
// begins an escape of two hexadecimal digits, url.Parse fails only on a
// port that is not digits, and the answer is the host name's and the
// port's. For anything else (an '@', brackets, a bad escape) sure is false,
// and url.Parse decides. FuzzFormats compares the two.
func plainURI(s []byte) (ok, sure bool) {
	var rest []byte
	switch {
	case len(s) >= 5 && lowerIs(s[:5], "http:"):
		rest = s[5:]
	case len(s) >= 6 && lowerIs(s[:6], "https:"):
		rest = s[6:]
	default:
		return false, true // another scheme, or none
	}
	if len(rest) < 2 || rest[0] != '/' || rest[1] != '/' {
		return false, true // no host
	}
	rest = rest[2:]
	end, colon := len(rest), -1
authority:
	for i, c := range rest {
		switch {
		case c == '/' || c == '?' || c == '#':
			end = i
			break authority
		case c == ':':
			if colon >= 0 {
				return false, false
			}
			colon = i
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-'):
			return false, false
		}
	}
	for tail := rest[end:]; ; {
		k := bytes.IndexByte(tail, '%')
		if k < 0 {
			break
		}
		if k+2 >= len(tail) || !isHex(tail[k+1]) || !isHex(tail[k+2]) {
			return false, false
		}
		tail = tail[k+3:]
	}
	host := rest[:end]
	if colon >= 0 {
		host = rest[:colon]
		if port := rest[colon+1 : end]; !digits(port) || len(port) > 5 {
			return false, true
		}
	}
	return isHostName(host, 1), true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// lowerIs reports whether b, its ASCII letters lowered, is s (lower case).
func lowerIs(b []byte, s string) bool {
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
