package fallback

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// structField is a field of a struct type as encoding/json encodes it: the
// rules are those of its documentation (Marshal), field by field.
type structField struct {
	name      string       // the member's key
	key       string       // `"name":`, escaped as encoding/json escapes it
	index     []int        // the path of field indexes from the outer struct
	typ       reflect.Type // the field's type
	tagged    bool         // the name comes from a json tag
	omitEmpty bool
	omitZero  bool
	isZero    func(reflect.Value) bool // omitzero's test, when the type has an IsZero method
	quoted    bool                     // the ",string" option, where it applies
}

var fieldCache sync.Map // reflect.Type -> []structField

// typeFields returns the fields that encoding/json encodes for struct type t,
// in the order it writes them: exported fields, and those of embedded
// structs, breadth first, where Go's rules for promoted fields, amended by
// json tags, leave one field per name.
//
// It follows encoding/json's typeFields (encode.go) as of Go 1.24, which
// added omitzero, to Go 1.26, the toolchain go.mod names: a new rule there
// is a difference here, which TestAppendValue's struct cases and
// FuzzAppendValue (against json.Marshal) are there to show.
func typeFields(t reflect.Type) []structField {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]structField)
	}
	fs, _ := fieldCache.LoadOrStore(t, dominantFields(candidateFields(t)))
	return fs.([]structField)
}

// candidateFields returns every field of t that may be encoded: its own and
// those of the structs it embeds, level by level (breadth first). A name
// may come more than once; dominantFields decides.
func candidateFields(t reflect.Type) []structField {
	var (
		fields        []structField
		current, next = []embedded{}, []embedded{{typ: t}}
		// How many times each struct type is embedded at the level being
		// read and at the next: a type embedded twice at one level gives
		// each of its names twice, so that they annihilate.
		count, nextCount map[reflect.Type]int
		visited          = map[reflect.Type]bool{}
	)
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, e := range current {
			if visited[e.typ] {
				continue // a type met at a shallower level hides this one
			}
			visited[e.typ] = true
			for i := range e.typ.NumField() {
				f, inner, ok := encodedField(e.typ.Field(i), append(slices.Clip(e.index), i))
				switch {
				case !ok:
				case inner != nil: // its fields are read at the next level
					if nextCount[inner]++; nextCount[inner] == 1 {
						next = append(next, embedded{inner, f.index})
					}
				default:
					fields = append(fields, f)
					if count[e.typ] > 1 {
						fields = append(fields, f) // a duplicate, so that the name annihilates
					}
				}
			}
		}
	}
	return fields
}

// embedded is a struct type embedded in the one typeFields reads, at index.
type embedded struct {
	typ   reflect.Type
	index []int
}

// encodedField returns the field that sf, at index, encodes as; or, for an
// embedded struct without a name of its own, the struct whose fields are
// read in its place (inner); ok is false for a field that is not encoded.
func encodedField(sf reflect.StructField, index []int) (f structField, inner reflect.Type, ok bool) {
	if sf.Anonymous {
		et := sf.Type
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if !sf.IsExported() && et.Kind() != reflect.Struct {
			return f, nil, false // an unexported non-struct type: nothing to promote
		}
	} else if !sf.IsExported() {
		return f, nil, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return f, nil, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if !validTag(name) {
		name = ""
	}
	ft := sf.Type
	if ft.Name() == "" && ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
		return structField{index: index}, ft, true
	}
	f = structField{name: name, tagged: name != "", index: index, typ: sf.Type}
	if f.name == "" {
		f.name = sf.Name
	}
	f.key = string(jsonwire.AppendMarshalString(nil, f.name)) + ":"
	for o := range strings.SplitSeq(opts, ",") {
		switch o {
		case "omitempty":
			f.omitEmpty = true
		case "omitzero":
			f.omitZero = true
			f.isZero = zeroFunc(sf.Type)
		case "string":
			f.quoted = quotable(ft.Kind())
		}
	}
	return f, nil, true
}

// dominantFields keeps, per name, the field at the shallowest depth, a
// tagged one before an untagged one; two at the same depth and tagging hide
// each other. It returns them in the order of their indexes.
func dominantFields(fields []structField) []structField {
	slices.SortFunc(fields, func(a, b structField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		if j-i == 1 || len(fields[i].index) != len(fields[i+1].index) || fields[i].tagged != fields[i+1].tagged {
			out = append(out, fields[i])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b structField) int { return slices.Compare(a.index, b.index) })
	return slices.Clip(out)
}

// quotable reports whether the ",string" option applies to a field of kind
// k (after one unnamed pointer): strings, numbers and booleans.
func quotable(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// validTag is encoding/json's rule for a tag name it uses: letters, digits
// and ASCII punctuation but quotes, backslash and comma.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero is encoding/json's omitzero test of a field: its isZero function
// (the type's IsZero method), else the zero value.
func (f *structField) isZeroValue(v reflect.Value) bool {
	if f.isZero != nil {
		return f.isZero(v)
	}
	return v.IsZero()
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zeroFunc returns the omitzero test that calls t's IsZero method, where it
// has one, guarded as encoding/json guards it against nil receivers; nil for
// a type without one.
func zeroFunc(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() ||
				v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.IsNil() || v.Interface().(isZeroer).IsZero() }
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.Interface().(isZeroer).IsZero() }
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				c := reflect.New(v.Type()).Elem() // a copy, to call the method on its address
				c.Set(v)
				v = c
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return nil
}
