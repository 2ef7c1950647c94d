// Package stagedata is what a check hands to staging: each claim's
// bindings, citations and written precisions, interned per destination,
// from which the viewer writes claim data and popovers and the output
// check counts the claims each built page must show.
package stagedata
