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
	// [{Pointer:/items Kind:items Kept:1 Total:40}]
}

func ExampleProcessor_ReadVariable() {
	store := &toolresult.MemStore{}
	p, err := toolresult.New(toolresult.WithBudget(20), toolresult.WithStore(store))
	if err != nil {
		panic(err)
	}
	// Named, the response is a variable however small it is (unnamed, data
	// that costs fewer tokens than a note about it would pass as it is).
	named, err := p.With(toolresult.WithName("items"))
	if err != nil {
		panic(err)
	}
	body := `{"count":3,"items":[{"id":"a1","note":"first of three"},{"id":"a2","note":"second"},{"id":"a3","note":"third"}]}`
	res, err := named.Process(context.Background(), strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Route, res.Variable.Name)
	part, err := p.ReadVariable(context.Background(), toolresult.Selection{Name: res.Variable.Name, Pointer: "/items", Offset: 1, Limit: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(part.Route, part.Text)
	_, err = p.ReadVariable(context.Background(), toolresult.Selection{Name: res.Variable.Name, Pointer: "/items/3"})
	fmt.Println(err)
	// Output:
	// variable items
	// passthrough [{"id":"a2","note":"second"}]
	// jsonmask: no value at /items/3 in items: the array at /items has 3 items
}
