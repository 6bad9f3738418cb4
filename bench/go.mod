module github.com/jsonmask/jsonmask/bench

go 1.26.0

require (
	github.com/bytedance/sonic v1.15.5
	github.com/go-faster/jx v1.2.0
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
	github.com/itchyny/gojq v0.12.20
	github.com/jsonmask/jsonmask v0.0.0
	github.com/klauspost/compress v1.20.3
	github.com/minio/simdjson-go v0.4.5
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/tiktoken-go/tokenizer v0.10.0
	github.com/valyala/fastjson v1.6.10
	golang.org/x/sys v0.48.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/go-faster/errors v0.7.1 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/segmentio/asm v1.2.1 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/oauth2 v0.37.0 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/jsonmask/jsonmask => ../

tool golang.org/x/perf/cmd/benchstat
