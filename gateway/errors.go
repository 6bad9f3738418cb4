package gateway

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
)

// The reasons why a masked body is refused, besides the masker's own
// (*jsonmask.SyntaxError, which wraps jsonmask.ErrMaxDepth,
// ErrInputTooLarge, ErrTokenTooLarge or ErrNotObject for a limit or a
// strict route). Test with errors.Is.
var (
	// ErrCoding: a Content-Encoding that the gateway does not decode, or
	// more than one (SPEC G3), or a coded body that does not decode.
	ErrCoding = errors.New("content coding refused")
	// ErrRatio: a coded body that decodes to more than Limits.MaxRatio
	// times its size, a decompression bomb (SPEC G6).
	ErrRatio = errors.New("decoded-to-encoded ratio over the limit")
	// ErrPartial: a 206 on a masked route (SPEC G4): a range of a body
	// cannot be masked.
	ErrPartial = errors.New("partial content on a masked route")
	// ErrUpstream: the upstream's body failed before its end, or a
	// handler panicked, or (Middleware) returned an error after it wrote
	// the status of a masked body.
	ErrUpstream = errors.New("upstream body failed")
	// ErrSSE: an event stream that the gateway cannot frame within its
	// limits (SPEC G2).
	ErrSSE = errors.New("event stream refused")
)

// Error is a masked body refused by the gateway itself, not by the masker:
// its message says why and where, never what the body holds.
type Error struct {
	// Offset is the offset in the body as received (still coded) where the
	// gateway stopped, or -1 where it is not known.
	Offset int64
	msg    string
	err    error
}

// Error returns "jsonmask: gateway: <what> at offset N".
func (e *Error) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: ", for a program that
// writes its own prefix.
func (e *Error) Detail() string {
	s := "gateway: " + e.msg
	if e.Offset >= 0 {
		s += " at offset " + itoa(e.Offset)
	}
	return s
}

// Unwrap returns one of ErrCoding, ErrRatio, ErrPartial, ErrUpstream or
// ErrSSE.
func (e *Error) Unwrap() error { return e.err }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// problem is an RFC 9457 problem document for a refused response. Its
// detail says the reason, offset and pointer, and never quotes the body.
type problem struct {
	Type    string `json:"type"`
	Title   string `json:"title"`
	Status  int    `json:"status"`
	Detail  string `json:"detail"`
	Offset  *int64 `json:"offset,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

// newProblem describes err for a client. A *jsonmask.SyntaxError's own
// message may quote a byte of the body ("invalid character 'x'"): the
// problem names the kind of fault instead.
func newProblem(status int, err error) problem {
	p := problem{Type: "about:blank", Title: http.StatusText(status), Status: status}
	var se *jsonmask.SyntaxError
	var ge *Error
	var pe *pathError
	switch {
	case errors.As(err, &se):
		// The pointer stops at the last member the mask keeps, escaped
		// (SPEC G5): a dropped key never reaches the client.
		p.Detail = "the upstream body was refused: " + syntaxReason(se)
		if se.Line > 0 {
			p.Detail += " on line " + itoa(se.Line)
		}
		p.Detail += " at offset " + itoa(se.Offset)
		p.Pointer = se.KeptPointer()
		if p.Pointer != "" {
			p.Detail += " (" + p.Pointer + ")"
		}
		p.Offset = &se.Offset
	case errors.As(err, &ge):
		p.Detail = "the upstream response was refused: " + ge.msg
		if ge.Offset >= 0 {
			p.Detail += " at offset " + itoa(ge.Offset)
			p.Offset = &ge.Offset
		}
	case errors.As(err, &pe):
		p.Detail = "the request was refused: " + pe.what + " in its path at offset " + itoa(int64(pe.offset))
		off := int64(pe.offset)
		p.Offset = &off
	default:
		p.Detail = "the upstream response failed"
	}
	return p
}

func syntaxReason(se *jsonmask.SyntaxError) string {
	switch {
	case errors.Is(se, jsonmask.ErrMaxDepth):
		return "nesting deeper than the limit"
	case errors.Is(se, jsonmask.ErrInputTooLarge):
		return "body larger than the limit"
	case errors.Is(se, jsonmask.ErrTokenTooLarge):
		return "string or number longer than the limit"
	case errors.Is(se, jsonmask.ErrNotObject):
		return "not a JSON object, on a strict route"
	default:
		return "not valid JSON"
	}
}

// Problem returns the response that Handler sends when it refuses a
// request (400, SPEC G8) or a response (502, SPEC G5) because of err: an
// application/problem+json document (RFC 9457) whose detail gives the
// reason, offset and pointer, never content of the body, and the header to
// send with it. It is for plug-ins that answer a refusal their own way, as
// an Envoy ext_proc server does with an ImmediateResponse.
func Problem(status int, err error) (http.Header, []byte) {
	body, _ := json.Marshal(newProblem(status, err))
	h := http.Header{}
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	return h, body
}

// writeProblem writes the problem document for err as the response.
func writeProblem(w http.ResponseWriter, status int, err error) {
	ph, body := Problem(status, err)
	h := w.Header()
	for k, vv := range ph {
		h[k] = vv
	}
	w.WriteHeader(status)
	w.Write(body)
}
