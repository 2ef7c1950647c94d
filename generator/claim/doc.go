// Package claim finds the quoted numbers ("claims") in Hugo Markdown pages
// and reads the number grammar of their literals.
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
// the references, one each. ParseLiteral reads a literal in one pass with a
// hand-written lexer (no regular expressions): digits (ASCII or
// full-width, grouped by commas or spaces), signs, magnitudes and compound
// magnitudes (1만 2천), number words (두 번, 二回, ふたつ, three), unit and
// counter words in Korean, Japanese and English (package unit), rates
// (초당 N건, N件/秒), ± tolerances (relative after a unit: 120ms ±11%),
// compound durations (143h25m, 1분 30초, 11分16秒, PT1M30S) and clock times
// (14:03:22, 오후 2시 3분) as one quantity each, sign words (12% 감소),
// ranges, transitions, fractions, comparators and approximation words with
// their direction. Every byte of a literal is read: a byte that is no part
// of a quantity, space, punctuation or known word is a LiteralError at its
// offset (see account). Parse stores
// the result on each Claim (Parsed), so check, coverage, fix and the
// translation checks share one reading.
//
// Pages are parsed with github.com/yuin/goldmark configured as Hugo
// v0.165.0 configures it by default (GFM tables, strikethrough, linkify,
// task lists, definition lists, footnotes, typographer, auto heading IDs,
// heading attributes), so a link is a claim exactly when Hugo renders it as
// a link. Front matter is blanked byte for byte before parsing, so AST
// offsets are offsets into the page file.
package claim
