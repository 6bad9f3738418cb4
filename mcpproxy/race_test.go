//go:build race

package mcpproxy_test

// The tests build jsonmask with the race detector too, so that the proxy's
// goroutines are checked in the subprocess as well.
func init() { raceBuild = true }
