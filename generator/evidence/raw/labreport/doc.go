// Package labreport reads the files a lab report is written in: the GFM
// pipe tables of a Markdown report ("markdown-tables", and the [[table]]
// entries of a manifest, which package evidence reads cell by cell with
// ReadTables and CellReadings) and key=value transcripts ("transcript",
// ReadTranscript). Both account for their numbers themselves (a cell or
// a transcript line that is not read is a warning), so the sweep of
// raw.Account does not wrap them.
//
// It imports raw and diag and no other reader package. Its tests and
// fuzz targets read through package formats (package labreport_test,
// with raw/internal/rawtest's helpers).
package labreport
