package studio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/toolresult"
)

// browser starts headless Chromium (Debian's package) for a test, with a
// fresh profile, and returns a context of a tab. The test is skipped under
// -short and when there is no browser: CI installs one (.ci/run).
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped under -short")
	}
	path := os.Getenv("JSONMASK_CHROMIUM")
	if path == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		t.Skip("no browser: install Debian's chromium (apt-get install chromium) or set JSONMASK_CHROMIUM to run the studio's browser tests")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// shots is where the screenshots of a browser test go: the directory
// JSONMASK_STUDIO_SHOTS names, or the test's artifact directory (kept with
// go test -artifacts).
func shots(t *testing.T) string {
	if dir := os.Getenv("JSONMASK_STUDIO_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.ArtifactDir()
}

// page drives the studio's page in a browser tab.
type page struct {
	t    *testing.T
	ctx  context.Context
	dir  string
	step int
}

// run runs steps with a time limit.
func (p *page) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// get runs an action that returns a value, with a time limit.
func get[T any](p *page, what string, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// settled waits until the page has shown a view with tokens after the
// view numbered after.
func (p *page) settled(after string) chromedp.Action[chromedp.Void] {
	cond := fmt.Sprintf(`document.body.dataset.ready !== undefined && document.body.dataset.ready !== %q && document.body.dataset.busy === "0" && document.body.dataset.mapBy === "tokens"`, after)
	poll := chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond))
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := poll(ctx, t)
		return chromedp.Void{}, err
	}
}

// click clicks what sel finds and waits for the page to settle.
func (p *page) click(sel string) {
	p.t.Helper()
	before := get(p, "before "+sel, chromedp.Evaluate[string](`document.body.dataset.ready || ""`))
	p.run("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible), p.settled(before))
}

// button is the selector of a row's button.
func button(path, action string) string {
	return fmt.Sprintf(`#paths tr[data-path=%q] button[data-action=%q]`, path, action)
}

// shot saves a screenshot of the page, numbered by step.
func (p *page) shot(name string) {
	p.t.Helper()
	p.step++
	png := get(p, "screenshot", chromedp.CaptureScreenshot()) // the viewport: FullScreenshot crops a scrollbar's width off the right
	file := filepath.Join(p.dir, fmt.Sprintf("%02d-%s.png", p.step, name))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", file)
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return get(p, "read "+sel, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel)))
}

// number reads a count the page shows, such as "12,345".
func (p *page) number(sel string) int64 {
	p.t.Helper()
	s := p.text(sel)
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		p.t.Fatalf("%s shows %q, not a number", sel, s)
	}
	return n
}

// TestBrowserDecisionFields writes the decision-fields mask of the
// conversation items (bench/testdata/workloads.json) by clicking, in a real
// browser, and checks what the page shows against the library.
func TestBrowserDecisionFields(t *testing.T) {
	ctx := browser(t)
	doc := corpus.File(t, "conversation_items.json")
	ts := newTestServer(t, Config{Samples: []Sample{{"conversation_items.json", doc}}})
	p := &page{t: t, ctx: ctx, dir: shots(t)}

	p.run("load", chromedp.EmulateViewport(1400, 1150), chromedp.Navigate(ts.URL+"/"), p.settled(""))
	if got := p.text(`#paths tr[data-path="/data"] td.path .name`); got != "data" {
		t.Fatalf("the first row is %q, want data (the heaviest)", got)
	}
	p.shot("first-view")

	for _, f := range []string{"/object", "/has_more", "/first_id", "/last_id"} {
		p.click(button(f, "keep"))
	}
	p.click(button("/data", "mask"))
	// data is kept without any of its members: its items become {}.
	warn := p.text(`#paths tr[data-path="/data/*"] .warn`)
	if !strings.Contains(warn, "{}") || !strings.Contains(warn, "1400 objects") {
		t.Errorf("beside /data/*: %q, want the warning that its 1400 objects become {}", warn)
	}
	if got := p.text(`#warnings li[data-kind="emptied"][data-path="/data/*"]`); !strings.Contains(got, "{}") {
		t.Errorf("warnings list: %q", got)
	}
	p.shot("data-kept-empty")

	for _, f := range []string{"type", "id", "status", "role", "name", "call_id"} {
		p.click(button("/data/*/"+f, "keep"))
	}
	p.click(button("/data/*/content", "mask"))
	p.click(button("/data/*/content/*/type", "keep"))
	p.click(button("/data/*/content/*/text", "keep"))
	p.shot("decision-fields")

	w := corpus.Find(t, "conversation-items/decision-fields")
	var got, want any
	maskText := get(p, "mask", chromedp.Value(chromedp.CSS("#mask-json")))
	if err := json.Unmarshal([]byte(maskText), &got); err != nil {
		t.Fatalf("the page's mask %q: %v", maskText, err)
	}
	if err := json.Unmarshal(w.Mask, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the page's mask\n%s\nwant the hand-written one\n%s", maskText, w.Mask)
	}
	fields := get(p, "fields", chromedp.Value(chromedp.CSS("#fields")))
	fm, err := jsonmask.CompileFields(fields)
	if err != nil {
		t.Fatalf("the page's fields %q: %v", fields, err)
	}
	if b, _ := fm.MarshalJSON(); string(b) != maskText {
		t.Errorf("the fields %q compile to %s, the page's JSON is %s", fields, b, maskText)
	}

	// The counts are those of jsonmask explain -tokens: the tokenizer over
	// the document and over what Append makes of it.
	tk, err := toolresult.NewTokenizer(toolresult.DefaultEncoding)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonmask.MustCompile(string(w.Mask)).Append(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	if in, o := p.number("#tokens-in"), p.number("#tokens-out"); in != int64(tk.Count(doc, -1)) || o != int64(tk.Count(out, -1)) {
		t.Errorf("the page shows %d -> %d tokens, explain -tokens %d -> %d", in, o, tk.Count(doc, -1), tk.Count(out, -1))
	}
	if p.text("#warnings li.none") == "" {
		t.Errorf("warnings left: %s", p.text("#warnings"))
	}

	// A click on the treemap drops a kept path.
	p.click(`#treemap g[data-path="/data/*/content/*/text"] rect`)
	if got := p.text(`#paths tr[data-path="/data/*/content/*/text"] button.on`); got != "drop" {
		t.Errorf("after a click on its tile, /data/*/content/*/text is %q, want dropped", got)
	}
	p.shot("treemap-click")
}

// TestBrowserLoadedMask: a mask given to the studio is loaded for editing,
// with the paths it recurses into open; a mask typed in the text syntax
// replaces it.
func TestBrowserLoadedMask(t *testing.T) {
	ctx := browser(t)
	doc := corpus.File(t, "conversation_items.json")
	ts := newTestServer(t, Config{Samples: []Sample{{"conversation_items.json", doc}},
		Mask: []byte(`{"data":{"id":true,"content":{"type":true}}}`)})
	p := &page{t: t, ctx: ctx, dir: shots(t)}
	p.run("load", chromedp.EmulateViewport(1400, 1150), chromedp.Navigate(ts.URL+"/"), p.settled(""))
	if got := p.text(button("/data/*/content/*/type", "keep") + ".on"); got != "keep" {
		t.Errorf("the loaded mask's /data/*/content/*/type is not shown kept (%q)", got)
	}
	if got := get(p, "fields", chromedp.Value(chromedp.CSS("#fields"))); got != "data(id,content/type)" {
		t.Errorf("fields %q", got)
	}
	p.shot("loaded")

	before := get(p, "ready", chromedp.Evaluate[string](`document.body.dataset.ready`))
	p.run("type fields",
		chromedp.SetValue(chromedp.CSS("#fields"), "data(id, role)"),
		chromedp.Click(chromedp.CSS("#apply-fields")),
		p.settled(before))
	if got, want := get(p, "mask", chromedp.Value(chromedp.CSS("#mask-json"))), `{"data":{"id":true,"role":true}}`; got != want {
		t.Errorf("after the text mask: %s, want %s", got, want)
	}
	if got := p.text(`#paths tr[data-path="/data/*/content"] button.on`); got != "drop" {
		t.Errorf("/data/*/content is %q after the text mask dropped it", got)
	}
	p.shot("typed")
}

// TestBrowserHostileKeys: keys and values that are markup stay text: the
// page builds its elements with DOM calls, and its policy forbids inline
// scripts.
func TestBrowserHostileKeys(t *testing.T) {
	ctx := browser(t)
	doc := `{"<img src=x onerror=window.pwned=1>":{"<script>window.pwned=2</script>":"<b>x</b>"},` +
		`"\"><svg onload=window.pwned=3>":[1]}`
	ts := newTestServer(t, Config{Samples: []Sample{{"hostile.json", []byte(doc)}}, Mask: []byte(`{"*":true}`)})
	p := &page{t: t, ctx: ctx, dir: shots(t)}
	p.run("load", chromedp.EmulateViewport(1400, 800), chromedp.Navigate(ts.URL+"/"), p.settled(""))
	p.click(`#paths tr[data-path="/<img src=x onerror=window.pwned=1>"] button[data-action="mask"]`)
	got := get(p, "hostile", chromedp.Evaluate[string](
		`[String(window.pwned), ...["img", "script:not([src])", "main b", "#paths svg"].map((s) => document.querySelectorAll(s).length)].join(" ")`))
	if got != "undefined 0 0 0 0" {
		t.Errorf("pwned, markup elements: %s; want undefined 0 0 0 0", got)
	}
	if !strings.Contains(p.text("#output"), "<b>x</b>") {
		t.Errorf("the output %q does not show the value as text", p.text("#output"))
	}
	p.shot("hostile")
}
