package fallback

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// TestKeyOf: the key Append sees is the string AppendValue writes,
// unescaped.
func TestKeyOf(t *testing.T) {
	for _, s := range []string{"", "plain", "日本語", "\xff", "a\xc3(b", "\xed\xa0\x80", "\xf0\x9f\x98", "\x80\x80\x80", "é\xe8"} {
		var back string
		if err := json.Unmarshal(jsonwire.AppendMarshalString(nil, s), &back); err != nil {
			t.Fatal(err)
		}
		if got := keyOf(s); got != back {
			t.Errorf("keyOf(%q) = %q, want %q", s, got, back)
		}
	}
}

// floatSeeds are floats around encoding/json's switches between notations.
var floatSeeds = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99999e-7, 1e-7, 1e20, 1e21, 9.99999e20, 123456789,
	1.5e300, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, 16777217, 1e-45, 3.4e38}

// TestAppendFloat: floats are written as encoding/json writes them, in both
// sizes.
func TestAppendFloat(t *testing.T) {
	for _, f := range floatSeeds {
		checkFloat(t, f)
	}
}

func FuzzAppendFloat(f *testing.F) {
	for _, x := range floatSeeds {
		f.Add(x)
	}
	f.Fuzz(checkFloat)
}

func checkFloat(t *testing.T, f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return
	}
	want64, _ := json.Marshal(f)
	if got := appendFloat(nil, f, 64); !bytes.Equal(got, want64) {
		t.Errorf("appendFloat(%v, 64) = %s, want %s", f, got, want64)
	}
	f32 := float32(f)
	if math.IsInf(float64(f32), 0) {
		return
	}
	want32, _ := json.Marshal(f32)
	if got := appendFloat(nil, float64(f32), 32); !bytes.Equal(got, want32) {
		t.Errorf("appendFloat(%v, 32) = %s, want %s", f32, got, want32)
	}
}

// TestValidNumber: validNumber agrees with encoding/json on what a
// json.Number may hold.
func TestValidNumber(t *testing.T) {
	for _, n := range []string{"0", "-0", "1", "-", "01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-1.5e-10", "+1",
		"1x", "0x10", "1.5.5", "Infinity", "NaN", " 1", "1 ", "10000000000000000999", "1e400", "-0.0e-0"} {
		_, err := json.Marshal(json.Number(n))
		if got := validNumber(n); got != (err == nil) {
			t.Errorf("validNumber(%q) = %t; encoding/json: %v", n, got, err)
		}
	}
}
