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
//     payload is dropped: the model gets it once. The budget bounds the
//     whole result: a tool without a mask keeps its other content items
//     (prose, images), and the texts among them count against the budget;
//     a masked tool's are dropped: they could carry what the mask drops.
//     Real servers' shapes (server-filesystem's): a structuredContent
//     {"content": "<text>"} whose text holds JSON has that JSON as its
//     payload; around other text, for a tool without a mask, it is
//     plaintext, sent once as a text item; one that repeats the content
//     items ({"content": [<the items>]}, media say) goes, and the items
//     stay as they are, never previewed as text. A masked tool's result
//     whose payload the mask would pass unmasked (B3: an array root
//     without "arrays", text that is not JSON) passes with a warning in
//     the log, or becomes an error result under "strict". A masked tool's result
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
//   - tasks (P8, MCP 2025-11-25): a tools/call result that creates a task
//     passes with its task as it is (a masked tool's loses the members
//     MCP does not define for it), and the proxy remembers the task's
//     tool; tasks/result then gets that tool's mask and budget, as a
//     tools/call result would. A tasks/result of a task the proxy did not
//     see created (before it started, or forgotten past 65,536 tasks) is
//     refused with a JSON-RPC error while some tool is masked, since it
//     could be that tool's; without masks it gets the default budget. The
//     tasks extension of later protocols is read too: a tools/call result
//     with resultType "task" (the task's members its own) creates a task,
//     and a tasks/get result that carries the finished task's result
//     inline gets the tool's mask and budget on it (withheld when the task
//     cannot be attributed and some tool is masked).
//
// # Configuration
//
// A [Config] (the -config file of jsonmask mcp) gives a default budget,
// the tokenizer's encoding, the store's directory, strict for every masked
// tool, and per tool a mask with the options of a route of jsonmask serve
// (response_mask, mask_file or fields; arrays, strict, wildcards,
// drop_mismatched, trusted), a budget (0: off), and whether
// display_instructions_for_model reaches the model (off by default: it is
// data, and the mask applies to it). [ParseConfig] reads it with the strict
// parser that jsonmask serve's config has (SPEC G11). [New] compiles it
// into a [Proxy]; [Proxy.Run] runs one server for one client.
//
// # Messages and their order
//
// A message may be of any size. A line of the server over 1 MiB is read a
// window at a time (longline.go): a tools/call or tasks/result result whose
// id comes before it has its big values (a text item's JSON,
// structuredContent, the string of a {"content": "<text>"} wrapper) masked
// and processed as they arrive, unheld; the rest of the line is held up to
// 512 MiB, past which the call it answers gets an error. The proxy remembers the id of each tools/list and tools/call it forwards whose
// result it rewrites (ids compared as JSON values: "1" and 1 differ, 1 and
// 1.0 do not). Messages go out in the order they came, in both directions:
// one that passes goes out as soon as it is read, unless a tools/call or
// tasks/result result before it from the server is still being processed;
// then it waits behind that result, and reading the server goes on, up to
// 4,096 messages or 64 MiB held, past which the server is not read until
// the result is done. The proxy's own answers (read_variable, errors for
// the requests it refuses) go out when they are ready. Batches (JSON
// arrays of messages, from older protocol versions) are read element by
// element: a batch with a result to rewrite goes out whole, in its place,
// when its results are done; read_variable
// calls in a batch are answered one by one. A call the client cancels
// (notifications/cancelled) is not processed, or stops being processed, and
// its result is not sent: the client ignores it. That holds for the proxy's
// own tools too: a read_variable or query_variable waiting on a store that
// does not answer stops when its call is cancelled.
//
// # Lifecycle
//
// The server runs in a process group of its own (on Unix), which the proxy
// signals as a whole: servers are often started through npx or sh -c, and
// the real server must not outlive the proxy. When the client's input
// ends, the server's input is closed; a server that has not exited after
// a grace period ([WithGrace], under a second by default, so that the
// whole sequence fits inside an MCP client's own) gets SIGTERM, and after
// another SIGKILL. When the proxy is told to stop (Run's context), at any
// time, the server's input is closed and it gets SIGTERM at once. When
// the server's output ends, the results in processing are written, and
// the server is waited for in the same way. Every wait is bounded. The
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
// it reads whole while it is read, processed and written, but for the big
// values of a long line; section 9 holds
// at most the budget's caps beyond the payload; at most GOMAXPROCS results
// (and at least 2) are processed at once, after which reading the server
// waits.
//
// A Proxy is safe for concurrent use.
package mcpproxy
