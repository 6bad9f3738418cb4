module github.com/jsonmask/jsonmask

go 1.25.0

require github.com/valyala/fastjson v1.6.10

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/prometheus/client_golang v1.24.1 // indirect
	go.uber.org/goleak v1.3.0 // indirect
)
