package spec

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
)

// textField is one text of a spec in one language, with where it is.
type textField struct {
	key      string   // "title", "panel 2 title", "legend.ok", …
	path     []string // the text's key path in the spec (see pathKey)
	lang     string
	text     string
	required bool
}

// fields lists every text of the spec in lang.
func (s *Spec) fields(lang string) []textField {
	var out []textField
	add := func(key string, path []string, t Text, required bool) {
		out = append(out, textField{key: key, path: append(path, lang), lang: lang, text: t[lang], required: required})
	}
	add("title", []string{"title"}, s.Title, true)
	add("caption", []string{"caption"}, s.Caption, true)
	add("alt", []string{"alt"}, s.Alt, true)
	add("x_axis", []string{"x_axis"}, s.XAxis, s.Kind == KindTimeline)
	add("y_axis", []string{"y_axis"}, s.YAxis, false)
	if s.Kind == KindTimeline && s.Flip != "" {
		add("flip_label", []string{"flip_label"}, s.FlipLabel, true)
	}
	for i, e := range s.Events {
		add(fmt.Sprintf("event %d label", i+1), []string{"event", strconv.Itoa(i), "label"}, e.Label, true)
	}
	ids := make([]string, 0, len(s.Legend))
	for id := range s.Legend {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		add("legend."+id, []string{"legend", id}, s.Legend[id], true)
	}
	for i, p := range s.Panels {
		pi := strconv.Itoa(i)
		add(fmt.Sprintf("panel %d title", i+1), []string{"panel", pi, "title"}, p.Title, len(s.Panels) > 1)
		if len(p.YAxis) > 0 {
			add(fmt.Sprintf("panel %d y_axis", i+1), []string{"panel", pi, "y_axis"}, p.YAxis, true)
		}
		for gi, g := range p.Groups {
			add(fmt.Sprintf("panel %d group %d label", i+1, gi+1), []string{"panel", pi, "group", strconv.Itoa(gi), "label"}, g.Label, true)
		}
	}
	return out
}

// MissingTexts reports texts a language lacks.
func (s *Spec) MissingTexts(lang string) diag.List {
	var ds diag.List
	for _, f := range s.fields(lang) {
		if f.required && strings.TrimSpace(f.text) == "" {
			ds = append(ds, diag.Errorf(s.KeyPos(lastKey(f.key)), diag.FigureSpec,
				"figure %q has no %s for language %q; expected %s = \"…\"", s.Name, f.key, lang, lang))
		}
	}
	if s.Kind == KindBars || s.Kind == KindTimeline {
		if s.Kind == KindTimeline {
			for _, id := range s.Counters {
				if t, ok := s.Legend[id]; ok && t[lang] == "" {
					ds = append(ds, diag.Errorf(s.KeyPos(id), diag.FigureSpec, "legend %q has no %q text", id, lang))
				}
			}
		}
	}
	if s.Kind == KindTimeline && len(s.Panels) > 0 && s.YAxis[lang] == "" {
		ds = append(ds, diag.Errorf(s.KeyPos("kind"), diag.FigureSpec, "figure %q has no y_axis for language %q", s.Name, lang))
	}
	return s.Spanned(ds)
}

func lastKey(k string) string {
	if i := strings.LastIndexAny(k, ". "); i >= 0 {
		return k[i+1:]
	}
	return k
}

// textOffset returns a function mapping a byte offset in field f's text
// to its offset in the spec, where that text is written (its own string:
// two fields of one text each map to theirs), or nil when the spec's
// string there does not read as the text (then a finding names the key).
func (s *Spec) textOffset(f textField) func(int) int {
	if f.text == "" {
		return nil
	}
	sp, ok := s.stringSpans()[pathKey(f.path...)]
	if !ok {
		return nil
	}
	val, offs, ok := decodeTOMLString(s.Src[sp.start:sp.end])
	if !ok || val != f.text {
		return nil
	}
	return func(o int) int {
		return sp.start + offs[min(max(o, 0), len(f.text))]
	}
}

// specFixes returns the suggested fixes of a claim in field f's text,
// which at maps into the spec file, as edits of the spec file: the fixes
// of a text written as a one-line TOML basic string whose edited bytes
// are written as they are (no escape), each edit's new text one the
// string holds as written (no quote, backslash or control character).
// Any other text's fixes are dropped, and evdoc fix says why it leaves
// the claim to a person.
func (s *Spec) specFixes(f textField, fixes []diag.SuggestedFix, at func(int) int) []diag.SuggestedFix {
	if len(fixes) == 0 || at == nil {
		return nil
	}
	sp := s.stringSpans()[pathKey(f.path...)]
	if raw := s.Src[sp.start:sp.end]; len(raw) < 2 || raw[0] != '"' || strings.HasPrefix(string(raw), `"""`) {
		return nil
	}
	ix := s.Index()
	out := make([]diag.SuggestedFix, 0, len(fixes))
	for _, fx := range fixes {
		g := diag.SuggestedFix{Message: fx.Message}
		for _, e := range fx.Edits {
			if strings.ContainsFunc(e.NewText, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 || r == 0x7f }) {
				return nil
			}
			if at(e.End)-at(e.Pos.Offset) != e.End-e.Pos.Offset {
				return nil // an escape in the edited bytes
			}
			g.Edits = append(g.Edits, diag.TextEdit{Pos: ix.Pos(at(e.Pos.Offset)), End: at(e.End), NewText: e.NewText})
		}
		out = append(out, g)
	}
	return out
}

// MissingGlyphs reports every rune of every text lang shows that no font of
// the chain has, at the text in the spec, before anything is drawn.
func (s *Spec) MissingGlyphs(lang string, fonts *typeset.Fonts) diag.List {
	var ds diag.List
	ix := s.Index()
	for _, f := range s.fields(lang) {
		shown := evLink.ReplaceAllString(f.text, "$1")
		for _, r := range fonts.Missing(shown) {
			pos, end := s.KeyPos(lastKey(f.key)), diag.Position{}
			if at := s.textOffset(f); at != nil {
				if j := strings.IndexRune(f.text, r); j >= 0 {
					pos, end = ix.Span(at(j), at(j)+utf8.RuneLen(r)) // the character
				}
			}
			ds = append(ds, diag.Errorf(pos, diag.FigureGlyph,
				"figure %q %s (%s): no font of the %s chain (%s) has a glyph for %s",
				s.Name, f.key, lang, lang, strings.Join(fonts.Names(), ", "), typeset.RuneName(r)).Spanning(end))
		}
	}
	return ds
}

var evLink = regexp.MustCompile(`\[([^\]]*)\]\(ev:[^)]*\)`)

// Plain returns t's text for lang with claim links replaced by their link
// text: what the chart shows.
func Plain(t Text, lang string) string {
	return evLink.ReplaceAllString(t[lang], "$1")
}

// JudgeTexts adds to ds (the findings of the figure's data) the findings
// of its texts in each language: texts a language lacks, runes no font
// of its chain has (fonts maps language to chain; a language without one
// is not glyph-checked), and every number of a text judged as a claim
// against st, exactly as in a page. It returns them positioned in the
// spec and sorted, with the verdict on every claim of the texts (the
// claim's page the spec file and its positions in it).
func (s *Spec) JudgeTexts(ds diag.List, st *evidence.Store, langs []string, fonts map[string]*typeset.Fonts, opt check.Options, mdc claim.MarkdownConfig) (diag.List, []check.Result) {
	var results []check.Result
	md := claim.NewMarkdownWith(mdc)
	ix := s.Index()
	for _, lang := range langs {
		ds = append(ds, s.MissingTexts(lang)...)
		if f := fonts[lang]; f != nil {
			ds = append(ds, s.MissingGlyphs(lang, f)...)
		}
		for _, f := range s.fields(lang) {
			if strings.TrimSpace(f.text) == "" {
				continue
			}
			at := s.textOffset(f)
			page, perrs := claim.ParseText(md, s.File, []byte(f.text))
			var tds diag.List
			tds = append(tds, perrs...)
			rs, cds := check.Claims(page, st, opt)
			tds = append(tds, cds...)
			for _, r := range rs {
				c := &r.Claim
				c.Page = s.File
				if at != nil {
					c.Pos, c.RefPos = ix.Pos(at(c.Pos.Offset)), ix.Pos(at(c.RefPos.Offset))
					if c.DestEnd.IsValid() {
						c.DestEnd = ix.Pos(at(c.DestEnd.Offset))
					}
					c.End = at(c.End)
				} else {
					c.Pos, c.RefPos, c.DestEnd, c.End = s.KeyPos(lastKey(f.key)), diag.Position{}, diag.Position{}, 0
				}
				results = append(results, r)
			}
			_, cov := check.Coverage(page)
			tds = append(tds, cov...)
			for _, d := range tds {
				fixes := d.Fixes
				d.Fixes = nil
				if at != nil {
					end := d.End
					d.Pos = ix.Pos(at(d.Pos.Offset))
					d.End = diag.Position{}
					if end.IsValid() {
						d.End = ix.Pos(at(end.Offset))
					}
					d.Fixes = s.specFixes(f, fixes, at)
				} else {
					d.Pos, d.End = s.KeyPos(lastKey(f.key)), diag.Position{}
				}
				if len(fixes) > 0 && len(d.Fixes) == 0 {
					d.Related = append(d.Related, diag.Related{Pos: d.Pos, Message: `evdoc fix rewrites a figure text only where the spec writes it as a "…" string, the number without escapes`})
				}
				d.Message = fmt.Sprintf("figure %q %s (%s): %s", s.Name, f.key, lang, d.Message)
				ds = append(ds, d)
			}
		}
	}
	ds = s.Spanned(ds)
	ds.Sort()
	return ds, results
}
