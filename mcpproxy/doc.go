// Package mcpproxy puts response masks and token budgets in front of any MCP
// server's tools (SPEC section 10), without changing the server or the
// client: it runs the server as a child and relays the JSON-RPC messages of
// MCP's stdio transport, newline-delimited, between it and the client.
//
// Every message passes byte for byte, in order, except:
//
//   - tools/call results (P3, P4, P6). The result's JSON payload (its
//     structuredContent, or else its first text that starts like a JSON
//     object or array) goes through the tool's mask and then through
//     package toolresult (SPEC section 9): data within the budget stays,
//     masked; larger data becomes a stored variable, and the model gets a
//     note, its schema and a preview. The result then holds one text with
//     that model text, and structuredContent only when the masked data is
//     within the budget and an object. A text that is the same JSON as the
//     payload is dropped: the model gets it once. A masked tool's other
//     content items (prose, images) are dropped too: they could carry what
//     the mask drops. A masked tool's result
//     that cannot be processed becomes an error result; it is never
//     forwarded unmasked. (A tool without a mask whose result cannot be
//     processed, say because the store fails, gets it as it is, with a
//     diagnostic.)
//   - tools/list results (P3, P5): tools whose results are rewritten lose
//     their outputSchema, and the first page gains the read_variable and
//     query_variable tools.
//   - read_variable and query_variable calls (P5, P7), which the proxy
//     answers itself from the store, under the budget of the tool that made
//     the variable; a query (a jq program) runs within the limits of the
//     config's "query" member.
//
// # Configuration
//
// A [Config] (the -config file of jsonmask mcp) gives a default budget,
// the tokenizer's encoding, the store's directory, and per tool a mask, a
// budget (0: off) and the array option. [New] compiles it into a [Proxy];
// [Proxy.Run] runs one server for one client.
//
// # Messages and their order
//
// A message may be of any size: lines are read whole, without a limit. The
// proxy remembers the id of each tools/list and tools/call it forwards whose
// result it rewrites (ids compared as JSON values: "1" and 1 differ, 1 and
// 1.0 do not). Messages that pass unchanged go out as soon as they are read,
// in order. A tools/call result being processed goes out when it is done,
// and the messages behind it are not held up: JSON-RPC matches responses by
// id and sets no order between them, and MCP's notifications about a call
// (progress) come before its response. Batches (JSON arrays of messages,
// from older protocol versions) are read element by element: a batch with a
// result to rewrite goes out whole when its results are done; read_variable
// calls in a batch are answered one by one. A call the client cancels
// (notifications/cancelled) is not processed, or stops being processed, and
// its result is not sent: the client ignores it.
//
// # Lifecycle
//
// When the client's input ends, the server's input is closed; a server that
// has not exited after a grace period ([WithGrace]) gets SIGTERM, and after
// another SIGKILL. When the server's output ends, the results in
// processing are written, and the server is waited for in the same way. The
// exit status is the server's.
//
// # Security considerations
//
// A mask stands between the server's data and the model, so the proxy fails
// closed wherever it cannot read a message exactly as the other side would:
//
//   - A line from the server that is not valid JSON is dropped (and, if its
//     id could be read and names a rewritten call, that call gets an error
//     result): a lenient client might parse it (NaN, say) and read a result
//     that the proxy could not mask.
//   - A line from the client that is not valid JSON, a request with two
//     ids, methods or params, a tools/call with two names, a tools/call or
//     tools/list without a usable id, and a request whose id is in flight are
//     answered with a JSON-RPC error and not forwarded: the server might read
//     them otherwise than the proxy did and send a result that would pass
//     unmasked.
//   - A response with two ids, two results, or a result and an error,
//     answering a rewritten call, becomes an error for that call.
//   - A masked tool's result loses the members that MCP does not define
//     (legacy toolResult, say), and becomes an error when a text in it holds
//     JSON other than its payload.
//   - JSON-RPC error responses pass as they are: their message and data are
//     the server's own, not the tool's result.
//
// Variables hold masked data only; read_variable reads them by a name that
// cannot leave the store's directory. Memory: the proxy holds each message
// it reads whole while it is read, processed and written; section 9 holds
// at most the budget's caps beyond the payload; at most GOMAXPROCS results
// (and at least 2) are processed at once, after which reading the server
// waits.
//
// A Proxy is safe for concurrent use.
package mcpproxy
