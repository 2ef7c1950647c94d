// Package claim finds the quoted numbers ("claims") in Hugo Markdown pages,
// the other numbers of their prose (coverage) and the blocks and shortcode
// calls the other checks read.
//
// A claim is a CommonMark inline link whose destination starts with "ev:":
//
//	[86/86](ev:dns-passthrough-tcp/d1.http.ok,d1.http.attempts)
//	[51.7%→0.21%](ev:dns-passthrough-tcp/d3.a.fail_rate,d3.b.fail_rate)
//	[약 40초](ev:dns-inflight-part2/curl.strict.time)
//
// The destination is a comma-separated list of evidence references, each
// "SET/NAME"; an item without "SET/" reuses the set of the item before it.
// The link text is the literal. Its numbers are matched left to right with
// the references, one each; package literal reads them. Parse stores the
// result on each Claim (Parsed), so check, coverage, fix and the
// translation checks share one reading.
//
// Pages are parsed with github.com/yuin/goldmark configured as Hugo
// v0.165.0 configures it by default (GFM tables, strikethrough, linkify,
// task lists, definition lists, footnotes, typographer, auto heading IDs,
// heading attributes), so a link is a claim exactly when Hugo renders it as
// a link. Front matter is blanked byte for byte before parsing, so AST
// offsets are offsets into the page file.
package claim
