// Package manifest reads and validates an evidence set's manifest,
// evidence.toml (the format is described in package evidence's doc): it
// decodes the file into a Manifest, reports each mistake at its key, and
// names what a manifest names: a label's or a native key's slug, and the
// short names `evdoc new evidence` writes into a [[read]]'s select.
//
// Reading the set's files with the manifest is package evidence's job;
// this package reads no file but the manifest text it is given.
package manifest
