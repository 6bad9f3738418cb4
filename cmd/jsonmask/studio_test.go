package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/corpus"
)

// TestStudioCommand starts jsonmask studio on a corpus response, asks its
// server for a view as the page does, and checks the token counts against
// jsonmask explain -tokens on the same file and mask. Under -short (CI's
// race run) it takes a smaller response: tokenizing 2 MB twice under the
// race detector takes 40 s.
func TestStudioCommand(t *testing.T) {
	name, fields, want := "conversation_items.json", "object,data(id,type,content/type)",
		`{"object":true,"data":{"id":true,"type":true,"content":{"type":true}}}`
	if testing.Short() {
		name, fields, want = "google_maps_api_response.json", "status,rows/elements(status,distance/text)",
			`{"status":true,"rows":{"elements":{"status":true,"distance":{"text":true}}}}`
	}
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, corpus.File(t, name), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	status := make(chan int, 1)
	go func() {
		status <- serveStudio(ctx, []string{"-fields", fields, "-listen", "127.0.0.1:0", file}, nil, outW, &stderr)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v (stderr %q)", err, stderr.String())
	}
	go io.Copy(io.Discard, outR)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "jsonmask studio: ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("printed %q, want jsonmask studio: http://127.0.0.1:PORT/", line)
	}
	resp, err := http.Post(url+"api/view", "application/json", strings.NewReader(`{"tokens":true}`))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Mask      string `json:"mask"`
		TokensIn  int64  `json:"tokens_in"`
		TokensOut int64  `json:"tokens_out"`
		BytesOut  int64  `json:"bytes_out"`
	}
	err = json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("view: %d %v", resp.StatusCode, err)
	}
	var stdout, errOut strings.Builder
	if st := run([]string{"explain", "-tokens", "-json", "-fields", fields, file}, nil, &stdout, &errOut); st != 0 {
		t.Fatalf("explain: %d %s", st, errOut.String())
	}
	var x struct {
		Bytes  struct{ Out int64 }
		Tokens struct{ In, Out int64 }
	}
	if err := json.Unmarshal([]byte(stdout.String()), &x); err != nil {
		t.Fatal(err)
	}
	if v.TokensIn != x.Tokens.In || v.TokensOut != x.Tokens.Out || v.BytesOut != x.Bytes.Out {
		t.Errorf("studio: %d -> %d tokens, %d bytes out; explain -tokens: %d -> %d, %d", v.TokensIn, v.TokensOut, v.BytesOut,
			x.Tokens.In, x.Tokens.Out, x.Bytes.Out)
	}
	if v.Mask != want {
		t.Errorf("the mask loaded for editing: %s, want %s", v.Mask, want)
	}
	cancel()
	select {
	case st := <-status:
		if st != 0 {
			t.Errorf("status %d after an interrupt, want 0", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the studio did not stop")
	}
}

func TestStudioUsage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(good, []byte(`{"a":1}`), 0o644)
	os.WriteFile(bad, []byte(`{"a":`), 0o644)
	for _, c := range []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"no sample", nil, 2, "give one or more sample files"},
		{"all interfaces", []string{"-listen", ":0", good}, 2, "not a loopback address"},
		{"another host", []string{"-listen", "192.0.2.1:0", good}, 2, "not a loopback address"},
		{"two masks", []string{"-mask", `{}`, "-fields", "a", good}, 2, "give one of"},
		{"bad mask", []string{"-mask", `{"a":false}`, good}, 2, "must be true or an object"},
		{"bad fields", []string{"-fields", "a(", good}, 2, "jsonmask: invalid fields mask: "},
		{"bad encoding", []string{"-encoding", "nope", good}, 2, "jsonmask: unknown encoding \"nope\""},
		{"not JSON", []string{bad}, 1, "bad.json"},
		{"missing", []string{filepath.Join(dir, "nope.json")}, 1, "no such file"},
		{"help", []string{"-h"}, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a run that got as far as serving stops at once
			st := serveStudio(ctx, c.args, nil, &stdout, &stderr)
			if st != c.status || !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("status %d, stderr %q; want %d and %q", st, stderr.String(), c.status, c.stderr)
			}
			onePrefix(t, stderr.String())
		})
	}
}

// TestPathsHTML: paths -html writes one static page with the treemap and
// the table, escaping what the document's keys hold, and no script.
func TestPathsHTML(t *testing.T) {
	doc := `{"items":[{"id":1,"<script>alert(1)</script>":"CANARY"}],"total":1}`
	runCases(t, []cliCase{
		{name: "Table", args: []string{"paths", "-html", "-fields", "items/id"}, stdin: doc,
			wantOut: `<td class="path">/items/*/id</td>`, outHas: true},
		{name: "Treemap", args: []string{"paths", "-html"}, stdin: doc, wantOut: `<svg viewBox="0 0 960 540"`, outHas: true},
		{name: "Kept", args: []string{"paths", "-html", "-fields", "items/id"}, stdin: doc,
			wantOut: `class="kept"`, outHas: true},
		{name: "Both", args: []string{"paths", "-html", "-json"}, stdin: doc, wantErr: "give one of -json and -html", wantStatus: 2},
	})
	var stdout, stderr strings.Builder
	if st := run([]string{"paths", "-html"}, strings.NewReader(doc), &stdout, &stderr); st != 0 {
		t.Fatal(stderr.String())
	}
	if strings.Contains(stdout.String(), "<script") {
		t.Error("a key of the document is in the page as markup")
	}
}
