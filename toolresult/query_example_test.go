package toolresult_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/jsonmask/jsonmask/toolresult"
)

func ExampleProcessor_Query() {
	p, err := toolresult.New(toolresult.WithBudget(60), toolresult.WithStore(&toolresult.MemStore{}))
	if err != nil {
		panic(err)
	}
	body := `{"data":[` + strings.Repeat(`{"category":"travel","amount":120.5},{"category":"meals","amount":30},`, 20) + `{"category":"meals","amount":12}]}`
	res, err := p.Process(context.Background(), strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	name := res.Variable.Name
	q, err := p.Query(context.Background(), toolresult.Query{Name: name,
		Program: `.data | group_by(.category) | map({category: .[0].category, total: (map(.amount) | add)}) | max_by(.total)`})
	if err != nil {
		panic(err)
	}
	fmt.Println(q.Route, q.Text)
	q, _ = p.Query(context.Background(), toolresult.Query{Name: name, Program: `length`, Pointer: "/data"})
	fmt.Println(q.Text)
	_, err = p.Query(context.Background(), toolresult.Query{Name: name, Program: `.data | map(.amount`})
	fmt.Println(err)
	// Output:
	// passthrough {"category":"travel","total":2410}
	// 41
	// jsonmask: query: syntax error at line 1, column 19 (offset 19): unexpected EOF
}
