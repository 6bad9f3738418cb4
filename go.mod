module github.com/jsonmask/jsonmask

go 1.25.0

require (
	github.com/klauspost/compress v1.20.3
	github.com/valyala/fastjson v1.6.10
	go.uber.org/goleak v1.3.0
)
