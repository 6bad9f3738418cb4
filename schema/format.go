package schema

import (
	"net/url"
	"time"
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

// formatsOf returns the formats s has. A string too long to look at (long)
// has none.
func formatsOf(s []byte, long bool) uint8 {
	if long || len(s) == 0 {
		return 0
	}
	var f uint8
	switch {
	case isDate(s):
		f |= fDate
	case isDateTime(s):
		f |= fDateTime
	case isUUID(s):
		f |= fUUID
	case isEmail(s):
		f |= fEmail
	case isURI(s):
		f |= fURI
	}
	return f
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

// isDate: RFC 3339 full-date, YYYY-MM-DD, a real day.
func isDate(s []byte) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !digits(s[:4]) || !digits(s[5:7]) || !digits(s[8:]) {
		return false
	}
	_, err := time.Parse("2006-01-02", string(s))
	return err == nil
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
	if len(s) > 1024 {
		return false
	}
	for _, c := range s {
		if c <= ' ' || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}' {
			return false
		}
	}
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
