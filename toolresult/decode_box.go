package toolresult

import "unsafe"

// boxes puts the strings, floats and ints a decode makes into `any`
// values without one allocation each.
//
// Go stores a value that is not a pointer in an interface as a pointer to
// a copy of it: any(s) for a string s allocates 16 bytes, any(f) for a
// float64 8, any(a) for a []any 24 (an int from 0 to 255 is the runtime's
// own, no allocation; a map is a pointer). A
// document of 100,000 numbers or strings is then 100,000 allocations, and
// as many objects for the collector to mark. boxes allocates the copies in
// slabs instead, typed ([]string, []float64, []int, [][]any: the float and int slabs
// hold no pointers, so the collector does not scan them) and points each
// interface at its slot. A slot is written once, before its interface is
// made, and never again: an interface's value cannot change, as Go
// requires. A slab stays alive while any of its values does.
//
// The interface is assembled by hand, with its type word taken from an
// interface that Go made: any is two words, the type and a pointer to the
// value (the runtime's eface; internal/abi.EmptyInterface). TestBoxes
// checks the values with ==, type switches, reflect and the collector.
type boxes struct {
	strs []string
	nums []float64
	ints []int
	arrs [][]any
	// The slots used in each slab: indices, not re-slicing, so that taking
	// a slot writes no pointer into the decoder (a write barrier while the
	// collector marks).
	ns, nn, ni, na int
	size           int // the next slab's length: it grows, so small documents stay small
}

// eface is the layout of an `any`.
type eface struct {
	typ, data unsafe.Pointer
}

// typeWord returns the type word of v.
func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

var (
	stringType = typeWord("")
	floatType  = typeWord(0.0)
	intType    = typeWord(0)
	arrayType  = typeWord([]any(nil))
)

// makeAny returns the interface of type typ whose value is at data.
func makeAny(typ, data unsafe.Pointer) (v any) {
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, data
	return v
}

// next returns the length of the next slab.
func (b *boxes) next() int {
	b.size = min(max(2*b.size, 16), 1024)
	return b.size
}

func (b *boxes) str(s string) any {
	if b.ns == len(b.strs) {
		b.strs, b.ns = make([]string, b.next()), 0
	}
	p := &b.strs[b.ns]
	*p = s
	b.ns++
	return makeAny(stringType, unsafe.Pointer(p))
}

func (b *boxes) float(f float64) any {
	if b.nn == len(b.nums) {
		b.nums, b.nn = make([]float64, b.next()), 0
	}
	p := &b.nums[b.nn]
	*p = f
	b.nn++
	return makeAny(floatType, unsafe.Pointer(p))
}

func (b *boxes) int(n int) any {
	if uint(n) < uint(len(smallInts)) {
		// No allocation, as the runtime does for any(n), without its call.
		return makeAny(intType, unsafe.Pointer(&smallInts[n]))
	}
	if b.ni == len(b.ints) {
		b.ints, b.ni = make([]int, b.next()), 0
	}
	p := &b.ints[b.ni]
	*p = n
	b.ni++
	return makeAny(intType, unsafe.Pointer(p))
}

// array boxes an array's slice header (24 bytes).
func (b *boxes) array(a []any) any {
	if b.na == len(b.arrs) {
		b.arrs, b.na = make([][]any, b.next()), 0
	}
	p := &b.arrs[b.na]
	*p = a
	b.na++
	return makeAny(arrayType, unsafe.Pointer(p))
}

// smallInts holds the ints from 0 to 255, which int boxes in place. No
// code writes them after init.
var smallInts = func() (a [256]int) {
	for i := range a {
		a[i] = i
	}
	return a
}()

// reset drops the slabs, so that a decoder kept in the pool does not keep
// the last decode's values alive.
func (b *boxes) reset() { *b = boxes{} }
