// Package gobench reads Go benchmark output: go test -bench lines
// ("go-bench": ns/op, B/op, allocs/op and custom metrics, with the
// goos/goarch/pkg/cpu header) and benchstat's comparison tables, old and
// new layouts ("benchstat"). Each reader is a raw.ListReader; package
// formats lists them under those format names.
//
// The readers build their readings with package raw's Recorder and
// tool-text helpers and follow the conventions of raw's readings.go; they
// import raw and nothing else of evdoc but diag. Their tests and fuzz
// targets read through package formats (package gobench_test, with
// raw/internal/rawtest's helpers).
package gobench
