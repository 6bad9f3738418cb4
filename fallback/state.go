package fallback

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/jsonmask/jsonmask/compile"
)

// The state of one ValueEncoder.Append call: the output, the containers
// open around the value being written (and the nesting limit), and
// encoding/json's cycle check.

// encState is the state of one ValueEncoder.Append call: the output, the
// containers open around the value being written, encoding/json's cycle
// check, and scratch space that nested maps share as stacks. States are
// pooled; release clears what they hold of the caller's values.
type encState struct {
	b        []byte
	enc      *ValueEncoder
	prog     *compile.Program
	opt      ValueOptions
	depth    int  // containers open around the value being written
	unmasked bool // the value being written is a root passed on as it is (SPEC B3)
	maxDepth int  // opt.MaxDepth, or no limit for a body passed through (SPEC B3)
	ptrLevel int  // pointers, maps and slices entered, as encoding/json counts them
	ptrSeen  map[cycleKey]struct{}

	entries    []mapEntry // members of maps being written, sorted in place
	anyEntries []anyEntry // the same for map[string]any, without reflect
	keys       []string   // the same for map[string]string
	raw        []byte     // a method's output, to be masked
	compact    bytes.Buffer
}

// mapEntry is a member of a map: its key as encoding/json resolves it, its
// value, and, under a mask, the mask's entry for it.
type mapEntry struct {
	name string
	v    reflect.Value
	node int32
}

type anyEntry struct {
	name string
	v    any
	node int32
}

func compareEntries(a, b mapEntry) int { return strings.Compare(a.name, b.name) }

func compareAny(a, b anyEntry) int { return strings.Compare(a.name, b.name) }

var states = sync.Pool{New: func() any { return new(encState) }}

// release returns s to the pool holding nothing of the call's values. After
// an error, maps may have left entries behind.
func (s *encState) release(err error) {
	if err != nil {
		clear(s.entries[:cap(s.entries)])
		clear(s.anyEntries[:cap(s.anyEntries)])
		clear(s.keys[:cap(s.keys)])
		s.entries, s.anyEntries, s.keys = s.entries[:0], s.anyEntries[:0], s.keys[:0]
	}
	clear(s.ptrSeen)
	// What methods wrote may hold what the mask dropped: it goes, and so do
	// buffers over 64 KiB.
	clear(s.raw[:cap(s.raw)])
	s.raw = s.raw[:0]
	if cap(s.raw) > 64<<10 {
		s.raw = nil
	}
	c := s.compact.Bytes()
	clear(c[:cap(c)])
	s.compact.Reset()
	if s.compact.Cap() > 64<<10 {
		s.compact = bytes.Buffer{}
	}
	s.b, s.enc, s.prog = nil, nil, nil
	states.Put(s)
}

// begin opens a map or slice at the start of its encoding, with c: it
// counts it for the cycle check (enter) and one level deeper (open). self
// returns it, for the cycle check.
func (s *encState) begin(self func() reflect.Value, c byte) error {
	if err := s.enter(self); err != nil {
		return err
	}
	return s.open(c)
}

// end closes what begin opened.
func (s *encState) end(self func() reflect.Value, c byte) {
	s.close(c)
	s.leave(self)
}

// open writes the start of an object or array, one level deeper: an error
// past the limit, as Append gives for the encoding (SPEC V2).
func (s *encState) open(c byte) error {
	if s.depth++; s.depth > s.maxDepth {
		return &DepthError{Limit: s.opt.MaxDepth}
	}
	s.b = append(s.b, c)
	return nil
}

func (s *encState) close(c byte) {
	s.depth--
	s.b = append(s.b, c)
}

// checkNesting reports an error if out, valid JSON written by a method in
// the containers open, nests past the limit.
func (s *encState) checkNesting(out []byte) error {
	if s.depth+len(out)/2 > s.maxDepth && s.depth+nesting(out) > s.maxDepth {
		return &DepthError{Limit: s.opt.MaxDepth}
	}
	return nil
}

// cycleAfter is how many pointers, maps and slices deep encoding/json goes
// before it starts to look for a cycle.
const cycleAfter = 1000

// cycleKey is a pointer, map or slice entered, as encoding/json tells them
// apart: a pointer by its type and address, a map by its address, a slice
// by its address and length.
type cycleKey struct {
	typ reflect.Type
	ptr unsafe.Pointer
	len int
}

func keyOfCycle(v reflect.Value) cycleKey {
	switch v.Kind() {
	case reflect.Pointer:
		return cycleKey{typ: v.Type(), ptr: v.UnsafePointer()}
	case reflect.Slice:
		return cycleKey{ptr: v.UnsafePointer(), len: v.Len() + 1}
	}
	return cycleKey{ptr: v.UnsafePointer()}
}

// enter counts a pointer, map or slice on the way down, and past cycleAfter
// of them fails on one already on the way, as encoding/json does: a cycle
// the depth limit would not stop in time, such as one of pointers alone.
// v is only looked at past cycleAfter.
func (s *encState) enter(v func() reflect.Value) error {
	if s.ptrLevel++; s.ptrLevel <= cycleAfter {
		return nil
	}
	return s.enterDeep(v)
}

// enterDeep is enter past cycleAfter, apart so that enter inlines.
func (s *encState) enterDeep(v func() reflect.Value) error {
	rv := v()
	k := keyOfCycle(rv)
	if _, ok := s.ptrSeen[k]; ok {
		return &json.UnsupportedValueError{Value: rv, Str: "encountered a cycle via " + rv.Type().String()}
	}
	if s.ptrSeen == nil {
		s.ptrSeen = map[cycleKey]struct{}{}
	}
	s.ptrSeen[k] = struct{}{}
	return nil
}

func (s *encState) leave(v func() reflect.Value) {
	if s.ptrLevel > cycleAfter {
		s.leaveDeep(v)
	}
	s.ptrLevel--
}

// leaveDeep is leave past cycleAfter, apart so that leave inlines.
func (s *encState) leaveDeep(v func() reflect.Value) {
	delete(s.ptrSeen, keyOfCycle(v()))
}
