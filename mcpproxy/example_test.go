package mcpproxy_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/jsonmask/jsonmask/mcpproxy"
)

// A server (here a shell script that answers one call) behind the proxy: the
// client gets the result masked.
func ExampleProxy_Run() {
	cfg, err := mcpproxy.ParseConfig([]byte(`{"tools": {"search": {"response_mask": {"id": true}}}}`))
	if err != nil {
		panic(err)
	}
	p, err := mcpproxy.New(cfg)
	if err != nil {
		panic(err)
	}
	server := exec.Command("sh", "-c", `read request; echo '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\":7,\"secret\":\"x\"}"}]}}'`)
	client := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{}}}` + "\n")
	status, err := p.Run(context.Background(), server, client, os.Stdout)
	fmt.Println(status, err)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\":7}"}],"structuredContent":{"id":7}}}
	// 0 <nil>
}
