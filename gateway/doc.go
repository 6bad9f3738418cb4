// Package gateway masks HTTP responses on their way to the client.
package gateway
