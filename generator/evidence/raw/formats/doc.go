// Package formats reads a raw file by the name of its format: the table
// of every format a [[read]] entry accepts (Names) and its reader
// (ReaderFor, ListReaderFor), wrapped in package raw's sweep for unread
// numbers (raw.Account) with each format's definition of its data lines
// (DataLines, sweep.go: comments, echoed commands, log lines and headers
// whose numbers name things, text blanked inside data lines, where an
// unread number belongs), the windowed reads of a file by format name
// (ReadWindowed, ReadList, ReadKept, ReadWindowedFrom), and Sniff, which
// guesses a file's format from its name and content.
//
// It is the composition of the readers: it imports package raw, which
// holds the core every reader shares (Reading, Readings, numbers, units,
// the unread accounting), and the reader packages under raw (structured,
// labreport, loadtest, envoy, cmdtools, gobench), each of which imports
// only raw (and raw/jsontree). Nothing imports upwards: raw and the
// reader packages never import formats, and callers that read by format
// name (evidence, cmd/evdoc) import formats. The table is built per call,
// not filled by the reader packages at init: no package-level registry,
// and no reader is left out because nothing imported its package.
package formats
