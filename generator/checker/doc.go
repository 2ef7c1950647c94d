// Package checker orchestrates the checks of a loaded project: what
// `evdoc check`, `evdoc serve` and `evdoc lsp` share.
//
// NewChecker judges every page and translation pair on a pool of
// workers, keeping each page's and pair's findings; Checker.Recheck then
// re-reads edited, new or deleted content files and judges again only
// what they affect (the page, its translation pairs, the site's pairing,
// and every page's links when pages come or go), which is what
// `evdoc serve` does after a save. Check is a Checker used once. The
// site-level checks (links, figures, evtable calls, evidence page names,
// unchecked numbers, style strings) are here too.
package checker
