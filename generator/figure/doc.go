// Package figure draws a figure spec (package spec) from evidence values
// with gonum/plot: the data of each chart kind resolved from the evidence
// store with every finding at the spec (data.go, kinddata.go; a
// Prometheus histogram's buckets in buckets.go), the drawing per kind
// (render.go, kindplot.go, plotters.go) as PNG and SVG with text as
// outlines (package typeset), the alt text generated from the same data
// (describe.go), and the judgement of a spec's data and texts (judge.go).
// Package output writes the drawings `evdoc figures` commits.
package figure
