package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
)

// gen writes random JSON documents and masks over a small key alphabet, so
// that masks hit and miss, with keys escaped in every way SPEC M5 allows.
type gen struct {
	rng *rand.Rand
	sb  strings.Builder
}

// genKeys are the unescaped keys; genKeySpellings gives ways to write each.
var genKeys = []string{"a", "b", "ab", "user", "é", "", "a\"b", "😋", "x/y", "id"}

var genKeySpellings = map[string][]string{
	"a":    {`"a"`, `"\u0061"`},
	"b":    {`"b"`, `"\u0062"`},
	"ab":   {`"ab"`, `"a\u0062"`},
	"user": {`"user"`, `"us\u0065r"`},
	"é":    {`"é"`, `"\u00e9"`, `"\u00E9"`},
	"":     {`""`},
	"a\"b": {`"a\"b"`, `"a\u0022b"`},
	"😋":    {`"😋"`, `"\ud83d\ude0b"`},
	"x/y":  {`"x/y"`, `"x\/y"`},
	"id":   {`"id"`, `"i\u0064"`},
}

var genScalars = []string{
	`0`, `-0`, `1`, `-12.5E+3`, `1E400`, `10000000000000000999`, `0.1e-2`, `3.14`,
	`true`, `false`, `null`,
	`""`, `"s"`, `"x y"`, `"caf\u00e9"`, `"\"q\""`, `"\\"`, `"名前"`, `"\ud800"`, `"tab\tesc"`, `"a\/b"`,
}

func newGen(seed uint64) *gen { return &gen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b9))} }

func (g *gen) ws() {
	if g.rng.IntN(4) == 0 {
		g.sb.WriteString([]string{" ", "\n", "\t", "\r\n", "  "}[g.rng.IntN(5)])
	}
}

func (g *gen) key() {
	k := genKeys[g.rng.IntN(len(genKeys))]
	sp := genKeySpellings[k]
	g.sb.WriteString(sp[g.rng.IntN(len(sp))])
}

func (g *gen) value(depth int) {
	g.ws()
	switch n := g.rng.IntN(10); {
	case depth > 0 && n < 4:
		g.sb.WriteByte('{')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				g.sb.WriteByte(',')
			}
			g.ws()
			g.key()
			g.ws()
			g.sb.WriteByte(':')
			g.value(depth - 1)
		}
		g.ws()
		g.sb.WriteByte('}')
	case depth > 0 && n < 6:
		g.sb.WriteByte('[')
		for i := range g.rng.IntN(4) {
			if i > 0 {
				g.sb.WriteByte(',')
			}
			g.value(depth - 1)
		}
		g.ws()
		g.sb.WriteByte(']')
	default:
		g.sb.WriteString(genScalars[g.rng.IntN(len(genScalars))])
	}
	g.ws()
}

// doc returns a random document: mostly objects, sometimes arrays or scalars.
func (g *gen) doc() []byte {
	g.sb.Reset()
	switch g.rng.IntN(10) {
	case 0:
		g.value(3)
	case 1:
		g.ws()
		g.sb.WriteByte('[')
		g.value(3)
		g.sb.WriteString(",")
		g.value(3)
		g.sb.WriteByte(']')
	default:
		g.ws()
		g.sb.WriteByte('{')
		for i := range 1 + g.rng.IntN(6) {
			if i > 0 {
				g.sb.WriteByte(',')
			}
			g.ws()
			g.key()
			g.sb.WriteByte(':')
			g.value(4)
		}
		g.sb.WriteByte('}')
		g.ws()
	}
	return []byte(g.sb.String())
}

// mask returns a random mask over genKeys.
func (g *gen) mask(depth int) []byte {
	g.sb.Reset()
	g.maskObject(depth)
	return []byte(g.sb.String())
}

func (g *gen) maskObject(depth int) {
	g.sb.WriteByte('{')
	perm := g.rng.Perm(len(genKeys))[:g.rng.IntN(5)]
	for i, k := range perm {
		if i > 0 {
			g.sb.WriteByte(',')
		}
		sp := genKeySpellings[genKeys[k]]
		g.sb.WriteString(sp[g.rng.IntN(len(sp))])
		g.sb.WriteByte(':')
		if depth > 0 && g.rng.IntN(2) == 0 {
			g.maskObject(depth - 1)
		} else {
			g.sb.WriteString("true")
		}
	}
	g.sb.WriteByte('}')
}

// genNoise are the bytes that mutate puts in.
const genNoise = "{}[],:\"\\ x0-e.\x00\xff\n\xc3"

// mutate damages doc a little: a byte removed, inserted or replaced, or the
// end cut off. The result may still be valid.
func (g *gen) mutate(doc []byte) []byte {
	if len(doc) == 0 {
		return doc
	}
	out := append([]byte{}, doc...)
	i := g.rng.IntN(len(out))
	switch g.rng.IntN(4) {
	case 0:
		return append(out[:i], out[i+1:]...)
	case 1:
		c := genNoise[g.rng.IntN(len(genNoise))]
		return append(out[:i], append([]byte{c}, out[i:]...)...)
	case 2:
		out[i] = genNoise[g.rng.IntN(len(genNoise))]
		return out
	}
	return out[:i]
}

// canaryDoc returns a document for maskJSON in which every member the mask
// drops has marker in its key and in its value, and kept values hold no marker.
func (g *gen) canaryDoc(maskJSON []byte, marker string) []byte {
	var mask map[string]any
	if err := json.Unmarshal(maskJSON, &mask); err != nil {
		panic(err)
	}
	g.sb.Reset()
	g.canaryObject(mask, marker, 3)
	return []byte(g.sb.String())
}

func (g *gen) canaryObject(mask map[string]any, marker string, depth int) {
	g.sb.WriteByte('{')
	n := 0
	member := func() {
		if n > 0 {
			g.sb.WriteByte(',')
		}
		n++
		g.ws()
	}
	for k, v := range mask {
		member()
		g.sb.WriteString(jsonString(k))
		g.sb.WriteByte(':')
		sub, nested := v.(map[string]any)
		switch {
		case !nested:
			g.value(2)
		case g.rng.IntN(4) == 0 && depth > 0:
			g.sb.WriteByte('[')
			g.canaryObject(sub, marker, depth-1)
			g.sb.WriteString(",")
			g.canaryObject(sub, marker, depth-1)
			g.sb.WriteByte(']')
		case depth > 0:
			g.canaryObject(sub, marker, depth-1)
		default:
			g.sb.WriteString("{}")
		}
		if g.rng.IntN(3) == 0 { // a dropped member among the kept ones
			member()
			g.canaryMember(marker)
		}
	}
	for range g.rng.IntN(3) {
		member()
		g.canaryMember(marker)
	}
	g.ws()
	g.sb.WriteByte('}')
}

// canaryMember writes a member whose key and value carry the marker, the
// value in one of the shapes a dropped value may take.
func (g *gen) canaryMember(marker string) {
	g.sb.WriteString(`"` + marker + `_key":`)
	v := []string{
		`"` + marker + `"`, `["` + marker + `",1,{"a":"` + marker + `"}]`, `{"a":"` + marker + `","` + marker + `":[]}`,
		`{"user":"` + marker + `","id":{"` + marker + `":1}}`, `"\u0043ANARY"`, `[[["` + marker + `"]]]`,
	}[g.rng.IntN(6)]
	g.sb.WriteString(v)
}

// damageCanary breaks doc without moving members between kept and dropped
// places: it cuts the end off, or puts a byte that is invalid in a string
// into one of the marked (dropped) values.
func (g *gen) damageCanary(doc []byte, marker string) []byte {
	out := append([]byte{}, doc...)
	if at := bytes.LastIndex(out, []byte(marker)); at >= 0 && g.rng.IntN(2) == 0 {
		out[at+1] = "\x01\xff\xc3\n"[g.rng.IntN(4)]
		return out
	}
	return out[:g.rng.IntN(len(out)+1)]
}
