package jsonmask_test

import (
	"fmt"

	"github.com/jsonmask/jsonmask"
)

func ExampleCompileFields() {
	m, err := jsonmask.CompileFields("id,items(id,price),owner/name")
	if err != nil {
		panic(err)
	}
	out, err := m.Append(nil, []byte(`{"id":7,"items":[{"id":1,"price":9.5,"sku":"x"}],"owner":{"name":"Ana","ssn":"123"},"debug":{}}`))
	fmt.Printf("%s %v\n", out, err)

	_, err = jsonmask.CompileFields("id,items(id,price")
	fmt.Println(err)
	// Output:
	// {"id":7,"items":[{"id":1,"price":9.5}],"owner":{"name":"Ana"}} <nil>
	// jsonmask: invalid fields mask: unbalanced parentheses: '(' is not closed at offset 8
}

func ExampleWithWildcards() {
	// Objects keyed by ids: keep the status of each, whatever its key.
	m := jsonmask.MustCompile(`{"jobs": {"*": {"status": true}}}`, jsonmask.WithWildcards(true))
	out, _ := m.Append(nil, []byte(`{"jobs":{"j1":{"status":"ok","log":"..."},"j2":{"status":"failed","log":"..."}}}`))
	fmt.Printf("%s\n", out)
	// Output:
	// {"jobs":{"j1":{"status":"ok"},"j2":{"status":"failed"}}}
}

func ExampleMask_MarshalJSON() {
	m := jsonmask.MustCompileFields("items/id,items/price,next")
	b, _ := m.MarshalJSON()
	fmt.Printf("%s\n", b)
	// Output:
	// {"items":{"id":true,"price":true},"next":true}
}

func ExampleMask_Explain() {
	m := jsonmask.MustCompileFields("id,owner/email")
	x, err := m.Explain([]byte(`{"id":1,"owner":{"name":"Ana"}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(x.BytesIn, "bytes in,", x.BytesOut, "out")
	for _, e := range x.Entries {
		fmt.Printf("%s matched %d, absent %d\n", e.Pointer, e.Matched, e.Absent)
	}
	for _, e := range x.Emptied {
		fmt.Printf("%s became {} %d time(s)\n", e.Path, e.Count)
	}
	// Output:
	// 31 bytes in, 19 out
	// /id matched 1, absent 0
	// /owner matched 1, absent 0
	// /owner/email matched 0, absent 1
	// /owner became {} 1 time(s)
}

func ExampleMask_Paths() {
	m := jsonmask.MustCompileFields("id,items/id")
	rows, err := m.Paths([]byte(`{"id":1,"items":[{"id":2,"blob":"xxxxxxxxxx"}]}`))
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Printf("%-16q %2d bytes, %2d kept (%s)\n", r.Path, r.Bytes, r.KeptBytes, r.Mask)
	}
	// Output:
	// ""               47 bytes, 27 kept (masked)
	// "/items"         30 bytes, 10 kept (masked)
	// "/items/*"       28 bytes,  8 kept (masked)
	// "/items/*/blob"  12 bytes,  0 kept (dropped)
	// "/id"             1 bytes,  1 kept (kept)
	// "/items/*/id"     1 bytes,  1 kept (kept)
}
