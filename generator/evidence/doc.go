// Package evidence reads raw lab test reports into named, exactly valued
// numbers that keep their provenance.
//
// An evidence set is a directory under evidence/ holding the raw files a lab
// run produced and a manifest, evidence.toml, that says where the set came
// from and which values in those files it names:
//
//	id          = "dns-inflight-part2"      # must equal the directory name
//	title       = "DNS in-flight, part 2"
//	date        = "2026-07-02"              # YYYY-MM-DD, or "unknown"
//	environment = "Istio 1.30.0, kind, lab-dns (CoreDNS)"
//	report      = "docs/test-reports/2026-07-02_112113_dns-inflight-part2.md"
//	origin      = "transcribed"             # or "raw"; see Provenance
//	source      = "published Q&A page, appendices B and C"
//
//	[[file]]                  # optional: a file of another origin
//	path   = "result.txt"
//	origin = "raw"
//
//	[[table]]                 # a GFM table in a Markdown report
//	file    = "report.md"
//	heading = "1. L7 STRICT"  # text contained in the heading above the table
//	index   = 1               # 1-based table under that heading (default 1)
//	name    = "strict"        # values are named strict.<row>.<column>
//	rows    = { "HTTP(gslb.lab.internal)" = "http" }   # optional relabels
//	columns = { "성공" = "success" }
//
//	[[transcript]]            # a result.txt style lab transcript
//	file     = "result.txt"
//	name     = "curl"         # values are named curl.<section>.<key>
//	sections = { "D-2" = "d2" }
//
//	[derived]                 # exact decimal arithmetic over named values
//	"strict.membership_change.d_mid1" = "strict.membership_change.mid1 - strict.membership_change.before"
//	"d3.a.fail_pct" = "percent(d3.a.failed, d3.a.attempts)"
//
// Row and column keys default to the label's slug: decorations (**, `) are
// removed, the text is cut at the first "(" or space, lower-cased, and
// anything outside [a-z0-9_] becomes "_". A key that is empty or does not
// start with a letter or "_" must be relabelled in the manifest; evdoc says
// so with the cell's position.
//
// A cell holds a number when, stripped of ** and `, it is a number with an
// optional sign (+, -, U+2212, Δ), unit (%, s, ms, B, KB) and trailing
// parenthesised note: "**18 (+1)**", "1 (Δ0)", "`60s`", "23(56.1%)". Other
// cells ("10.250.147.30(a)", "N/A", prose) name no value.
//
// Commas: "1,234,567" and "1,234.5" group thousands, "40,045811" has a
// decimal comma, and "1,232" is ambiguous; a manifest declares the decimal
// mark of its files with decimal = "." or "," (top level, or per entry).
// Undeclared, an ambiguous number follows the file's other numbers with a
// warning, and is an error when they show no mark (see raw.Number.Resolve).
//
// All arithmetic is exact decimal (github.com/shopspring/decimal);
// expressions are parsed by github.com/expr-lang/expr and evaluated here
// over decimals.
package evidence
