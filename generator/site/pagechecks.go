package site

import (
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/nesting"
)

// screenPage checks a page's bytes before it is parsed: text that is not
// UTF-8 (Hugo would publish the bytes as they are into pages declared
// UTF-8) and container nesting deeper than nesting.MaxDepth (a parser
// takes quadratic time on it). It returns the findings, and false when
// the page must not be parsed.
func screenPage(file string, src []byte) (diag.List, bool) {
	var ds diag.List
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		pos, end := diag.NewLineIndex(file, src).Span(off, off+1) // the first invalid byte
		ds = append(ds, diag.Errorf(pos, diag.PageEncoding,
			"invalid UTF-8 (byte 0x%02X); expected UTF-8 text: re-save the page as UTF-8", src[off]).Spanning(end))
	}
	if d := nesting.Markdown(src, nesting.MaxDepth); d != nil {
		ix := diag.NewLineIndex(file, src) // the line that nests too deep
		ds = append(ds, diag.Errorf(ix.Pos(d.Offset), diag.PageLimit,
			"lists or block quotes nest deeper than %d levels; expected a flatter page", d.Limit).Spanning(ix.LineEnd(d.Offset)))
		return ds, false
	}
	return ds, true
}

// rawHTMLFindings reports the raw HTML of a page when cfg does not set
// markup.goldmark.renderer.unsafe: Hugo then omits it from the page (an
// HTML comment "raw HTML omitted") with a warning, which fails the build
// under --strict (--panicOnWarning). With unsafe = true Hugo publishes
// raw HTML as written, and there is nothing to report.
func rawHTMLFindings(cfg *Config, p *claim.Page) diag.List {
	if cfg.Unsafe {
		return nil
	}
	where := "Hugo's configuration"
	if len(cfg.Files) > 0 {
		where = strings.Join(cfg.Files, ", ")
	}
	var ds diag.List
	for _, r := range p.RawHTML {
		ds = append(ds, diag.Errorf(r.Pos, diag.PageHTML,
			"raw HTML; Hugo omits it from the page, since markup.goldmark.renderer.unsafe is not true (%s), and warns (a failure under --strict); expected Markdown (a line break: a backslash or two spaces at the end of the line), or unsafe = true under [markup.goldmark.renderer] to publish raw HTML", where).Spanning(r.End))
	}
	return ds
}
