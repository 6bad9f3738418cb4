package toolresult_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

func ExampleProcessor_Process() {
	p, err := toolresult.New(
		toolresult.WithBudget(150),
		toolresult.WithMask(jsonmask.MustCompile(`{"items":{"id":true,"status":true},"count":true}`)),
		toolresult.WithStore(&toolresult.MemStore{}),
	)
	if err != nil {
		panic(err)
	}
	body := `{"display_instructions_for_model":"Answer in one line.","count":40,"items":[` +
		strings.Repeat(`{"id":"a1","status":"open","secret":"x"},`, 39) + `{"id":"a2","status":"done"}]}`
	res, err := p.Process(context.Background(), strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Route, res.Tokens.Context <= 150, res.Instructions)
	fmt.Println(res.Variable.Name, res.Variable.Bytes)
	fmt.Println(res.Schema.Compact(0))
	fmt.Printf("%+v\n", res.Omitted)
	// Output:
	// variable true Answer in one line.
	// var_914a183c8104 1142
	// {count: number; items: Array<{id: "a1" | "a2"; status: "open" | "done"}>}
	// [{Pointer:/items Kind:items Kept:5 Total:40}]
}
