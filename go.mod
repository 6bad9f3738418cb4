module github.com/jsonmask/jsonmask

go 1.25

require github.com/valyala/fastjson v1.6.10
