// Package structured reads structured formats whose names and numbers the
// file itself lays out, not a tool's fixed report: CSV ("csv", with a key
// column and count_where predicates), generic JSON ("json", every number
// or chosen paths), Prometheus text exposition ("prometheus"), Envoy and
// Istio access logs ("envoy-access-log", text and JSON lines, with
// count_where) and the pattern format ("pattern": lines matched by a
// manifest's patterns, CompilePattern, which package manifest checks
// with). Each reader is a raw.ListReader; package formats lists them
// under those format names.
//
// The readers build their readings with package raw's Recorder and follow
// the conventions of raw's readings.go; the readers that can keep only a
// [[read]]'s selected readings (csv, envoy-access-log) use
// raw.ReadOptions.Keep and Recorder.DropUnkept. They import raw, diag,
// unit and raw/jsontree, and no other reader package. Their tests and
// fuzz targets read through package formats (package structured_test,
// with raw/internal/rawtest's helpers).
package structured
