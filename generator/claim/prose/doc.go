// Package prose finds the numbers a page's prose publishes outside claims
// and classifies each: a measurement that should be bound to evidence
// (Rule ""), or one an exemption rule covers (a version, an address, a
// date or time, an identifier, section numbering, a port, an HTTP status
// code, a shortcode's syntax). Package claim calls Scan on the text nodes
// of each page it parses and counts the result as the page's coverage.
//
// Files: scan.go finds the numbers (digits of any script, character
// references decoded, number words with a counter) and the spans of
// shortcode calls; classify.go the exemption rules; decode.go CommonMark
// character references.
package prose
