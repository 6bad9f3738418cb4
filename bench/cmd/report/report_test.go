package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestKeepTail checks that rebuilding the report keeps what follows its
// marker, and only that, whatever the generated part becomes.
func TestKeepTail(t *testing.T) {
	section := "## Tool responses for a model\n\nFigures written by hand.\n"
	first := keepTail([]byte("# report\n\nold figures\n"), nil)
	if !bytes.HasSuffix(first, []byte(keptMarker+"\n")) {
		t.Fatalf("a new report does not end with the marker:\n%s", first)
	}
	edited := append(first, section...)
	for _, tc := range []struct {
		name string
		old  []byte
		want string
	}{
		{"WithSection", edited, "# report\n\nnew figures\n\n" + keptMarker + "\n" + section},
		{"NoMarker", []byte("# report\n\nold figures\n" + section), "# report\n\nnew figures\n\n" + keptMarker + "\n"},
		{"NoReport", nil, "# report\n\nnew figures\n\n" + keptMarker + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := keepTail([]byte("# report\n\nnew figures\n"), tc.old)
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			if again := keepTail([]byte("# report\n\nnew figures\n"), got); !bytes.Equal(again, got) {
				t.Errorf("a second run changes the report:\n%s", again)
			}
		})
	}
}

// TestChartUnit checks that the chart's title names the unit of its medians,
// as the report's table does.
func TestChartUnit(t *testing.T) {
	r, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	defer func(u string) { throughputUnit = u }(throughputUnit)
	for _, unit := range []string{"MB/s", "cpu-MB/s"} {
		throughputUnit = unit
		if svg := chartSVG(r); !bytes.Contains(svg, []byte("(median "+unit+" of input")) {
			t.Errorf("unit %s: the chart's title does not name it:\n%.300s", unit, svg)
		}
	}
}
