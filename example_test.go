package jsonmask_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jsonmask/jsonmask"
)

func ExampleCompile() {
	m, err := jsonmask.Compile([]byte(`{"id": true, "user": {"name": true}}`))
	if err != nil {
		panic(err)
	}
	out, err := m.Append(nil, []byte(`{"id": 7, "user": {"name": "Ana", "ssn": "123-45-6789"}, "debug": {"trace": [1, 2]}}`))
	fmt.Println(string(out), err)
	// Output: {"id":7,"user":{"name":"Ana"}} <nil>
}

func ExampleCompile_error() {
	_, err := jsonmask.Compile([]byte(`{"members": {"email": false}}`))
	var me *jsonmask.MaskError
	fmt.Println(errors.As(err, &me), me.Pointer)
	fmt.Println(err)
	// Output:
	// true /members/email
	// jsonmask: mask member "/members/email" must be true or an object, got false
}

func ExampleMustCompile() {
	var itemMask = jsonmask.MustCompile(`{"data": {"id": true, "status": true}}`)
	out, _ := itemMask.Append(nil, []byte(`{"data": [{"id": "a", "status": "ok", "blob": "…"}, {"id": "b"}]}`))
	fmt.Println(string(out))
	// Output: {"data":[{"id":"a","status":"ok"},{"id":"b"}]}
}

func ExampleMask_Append() {
	m := jsonmask.MustCompile(`{"a": true}`)
	var buf []byte // reuse buf across calls: Append allocates nothing once it has room
	for _, body := range []string{`{"a": 1, "b": 2}`, `[{"a": 1, "b": 2}]`, `Internal Server Error`} {
		var err error
		buf, err = m.Append(buf[:0], []byte(body))
		fmt.Printf("%s %v\n", buf, err)
	}
	// Output:
	// {"a":1} <nil>
	// [{"a": 1, "b": 2}] <nil>
	// Internal Server Error <nil>
}

func ExampleMask_Copy() {
	m := jsonmask.MustCompile(`{"count": true, "items": {"id": true}}`)
	body := strings.NewReader(`{"count": 2, "items": [{"id": 1, "secret": "x"}, {"id": 2, "secret": "y"}]}`)
	n, err := m.Copy(os.Stdout, body)
	fmt.Println()
	fmt.Println(n, err)
	// Output:
	// {"count":2,"items":[{"id":1},{"id":2}]}
	// 39 <nil>
}

func ExampleMask_NewReader() {
	m := jsonmask.MustCompile(`{"title": true}`)
	// In a client: resp.Body = io.NopCloser(m.NewReader(resp.Body)).
	r := m.NewReader(strings.NewReader(`{"title": "Kitchen", "styles": {"theme": "dark"}}`))
	out, err := io.ReadAll(r)
	fmt.Println(string(out), err)
	// Output: {"title":"Kitchen"} <nil>
}

func ExampleMask_NewWriter() {
	m := jsonmask.MustCompile(`{"ok": true}`)
	// In a handler: w := m.NewWriter(rw); ...; err := w.Close().
	w := m.NewWriter(os.Stdout)
	io.WriteString(w, `{"ok": true, "inter`)
	io.WriteString(w, `nal": {"host": "db-1"}}`)
	fmt.Println(w.Close() == nil)
	// Output: {"ok":true}true
}

func ExampleMask_NewWriter_truncated() {
	m := jsonmask.MustCompile(`{"ok": true}`)
	w := m.NewWriter(io.Discard)
	io.WriteString(w, `{"ok": true, "more": [1, 2`)
	fmt.Println(w.Close())
	// Output: jsonmask: unexpected end of JSON input at offset 26 (/more)
}

func ExampleWithArrays() {
	m := jsonmask.MustCompile(`{"login": true}`, jsonmask.WithArrays(true))
	out, _ := m.Append(nil, []byte(`[{"login": "ana", "id": 1}, {"login": "bo", "id": 2}]`))
	fmt.Println(string(out))
	// Output: [{"login":"ana"},{"login":"bo"}]
}

func ExampleWithDropMismatched() {
	body := []byte(`{"user": "raw SSN 123-45-6789", "id": 1}`)
	lenient := jsonmask.MustCompile(`{"user": {"name": true}, "id": true}`)
	strict := jsonmask.MustCompile(`{"user": {"name": true}, "id": true}`, jsonmask.WithDropMismatched(true))
	a, _ := lenient.Append(nil, body)
	b, _ := strict.Append(nil, body)
	fmt.Println(string(a))
	fmt.Println(string(b))
	// Output:
	// {"user":"raw SSN 123-45-6789","id":1}
	// {"id":1}
}

func ExampleWithNDJSON() {
	m := jsonmask.MustCompile(`{"type": true}`, jsonmask.WithNDJSON(true))
	out, err := m.Append(nil, []byte("{\"type\":\"message\",\"text\":\"hi\"}\n\n{\"type\":\"call\",\"args\":{}}\n"))
	fmt.Printf("%s%v\n", out, err)
	// Output:
	// {"type":"message"}
	//
	// {"type":"call"}
	// <nil>
}

func ExampleWithMaxDepth() {
	m := jsonmask.MustCompile(`{"a": true}`, jsonmask.WithMaxDepth(2))
	_, err := m.Append(nil, []byte(`{"b": [[1]]}`))
	fmt.Println(errors.Is(err, jsonmask.ErrMaxDepth))
	fmt.Println(err)
	// Output:
	// true
	// jsonmask: exceeded max depth 2 at offset 7 (/b)
}

func ExampleWithTrustedInput() {
	m := jsonmask.MustCompile(`{"id": true}`, jsonmask.WithTrustedInput(true))
	out, err := m.Append(nil, []byte(`{"big": {"dropped": ["only quoting and nesting are checked here"]}, "id": 1}`))
	fmt.Println(string(out), err)
	// Output: {"id":1} <nil>
}

func ExampleSyntaxError() {
	m := jsonmask.MustCompile(`{"user": {"name": true}}`)
	_, err := m.Append(nil, []byte(`{"user": {"name": "Ana", "ssn" "123"}}`))
	var se *jsonmask.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Offset, se.Pointer)
	}
	fmt.Println(err)
	// Output:
	// 31 /user/ssn
	// jsonmask: invalid character '"' after object key at offset 31 (/user/ssn)
}

func ExampleWithMaxInputSize() {
	m := jsonmask.MustCompile(`{"id": true}`, jsonmask.WithMaxInputSize(16))
	_, err := m.Copy(io.Discard, strings.NewReader(`{"id": 1, "padding": "……"}`))
	fmt.Println(errors.Is(err, jsonmask.ErrInputTooLarge))
	fmt.Println(err)
	// Output:
	// true
	// jsonmask: input longer than 16 bytes at offset 16
}

func ExampleWithMaxTokenSize() {
	m := jsonmask.MustCompile(`{"id": true}`, jsonmask.WithMaxTokenSize(8))
	_, err := m.Append(nil, []byte(`{"id": 1, "blob": "aaaaaaaaaaaaaaaa"}`))
	fmt.Println(errors.Is(err, jsonmask.ErrTokenTooLarge))
	fmt.Println(err)
	// Output:
	// true
	// jsonmask: a string or number longer than 8 bytes at offset 26 (/blob)
}

func ExampleWithBufferSize() {
	// A smaller window holds less memory per stream, at some cost in speed.
	m := jsonmask.MustCompile(`{"id": true}`, jsonmask.WithBufferSize(4<<10))
	n, err := m.Copy(io.Discard, strings.NewReader(`{"id": 1, "rest": [1, 2, 3]}`))
	fmt.Println(n, err)
	// Output: 8 <nil>
}

func ExampleMaskError() {
	_, err := jsonmask.Compile([]byte(`{"a": true, "b": {"c": true, "c": true}}`))
	var me *jsonmask.MaskError
	if errors.As(err, &me) {
		fmt.Println(me.Offset, me.Pointer)
	}
	fmt.Println(err)
	// Output:
	// 29 /b/c
	// jsonmask: mask member "/b/c" appears twice (SPEC M4) at offset 29
}

func ExampleMask_AppendValue() {
	type User struct {
		Name  string `json:"name"`
		Email string `json:"email"`
		SSN   string `json:"ssn"`
	}
	m := jsonmask.MustCompile(`{"users": {"name": true}}`)
	out, err := m.AppendValue(nil, map[string]any{
		"users": []User{{"Ana", "ana@example.com", "123"}, {"Bo", "bo@example.com", "456"}},
		"debug": true,
	})
	fmt.Println(string(out), err)
	// Output: {"users":[{"name":"Ana"},{"name":"Bo"}]} <nil>
}
