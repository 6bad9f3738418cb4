module github.com/jsonmask/jsonmask

go 1.26

require github.com/valyala/fastjson v1.6.10

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/tiktoken-go/tokenizer v0.10.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
