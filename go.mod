module github.com/jsonmask/jsonmask

go 1.25
