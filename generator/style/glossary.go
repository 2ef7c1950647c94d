// Package style checks the words around the numbers as a native reader
// sees them: a project glossary's terms (rule term-glossary) and the
// typography Hugo's renderer gives Korean and Japanese text (rules
// page-quote-pair and page-particle-space).
//
// A glossary is the file glossary.toml at a project's root, one [[term]]
// table per concept:
//
//	[[term]]
//	concept = "retry"
//	ko = "재시도"
//	ja = "リトライ"
//	avoid = { ja = ["再試行", "retry"] }
//	allow = { ja = ["リトライ（retry）"] }
//	note = "`retries`, `retryOn` in code"
//
// A key naming a language (any key other than concept, note, avoid and
// allow) gives the preferred term in that language; avoid lists, per
// language, the variants a page, a figure spec or an i18n string of that
// language must not use; allow lists longer forms in which a variant may
// appear (the preferred term with the English original in parentheses).
// A variant is found in prose text only: code spans, code blocks, link
// destinations and raw HTML are not prose. A variant written in ASCII
// letters matches whole words, in any letter case; other variants match
// where they occur; an ASCII variant inside a run of three or more Latin
// words (an English quotation, an error message) is not reported.
package style

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/tomlpos"
)

// GlossaryFile is the name of the glossary at a project's root.
const GlossaryFile = "glossary.toml"

// Glossary is a project's terms: one Term per concept.
type Glossary struct {
	File  string
	Terms []Term
}

// Term is one concept of a Glossary.
type Term struct {
	Concept string
	Note    string
	// Preferred maps a language key to the term pages of that language use.
	Preferred map[string]string
	// Avoid maps a language key to the variants pages of that language
	// must not use.
	Avoid map[string][]string
	// Allow maps a language key to forms a variant may appear in.
	Allow map[string][]string
	// Pos is the position of the [[term]] header in the glossary file.
	Pos diag.Position
}

// Languages returns the language keys with a preferred term, sorted.
func (t Term) Languages() []string {
	var out []string
	for l := range t.Preferred {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// ParseGlossary reads the glossary src of the file named file. Every
// problem is a site-config diagnostic at the key or value it concerns; a
// glossary with errors is returned as far as it could be read.
func ParseGlossary(file string, src []byte) (*Glossary, diag.List) {
	ix := diag.NewLineIndex(file, src)
	g := &Glossary{File: file}
	var ds diag.List
	errorf := func(r unstable.Range, format string, args ...any) {
		pos, end := ix.Span(int(r.Offset), int(r.Offset+r.Length))
		ds = append(ds, diag.Errorf(pos, diag.SiteConfig, format, args...).Spanning(end))
	}
	keys := tomlpos.Keys
	var p unstable.Parser
	p.Reset(src)
	var cur *Term
	// list reads an array of strings (avoid.ja = […]).
	list := func(v *unstable.Node, what string) []string {
		if v.Kind != unstable.Array {
			errorf(v.Raw, "%s: expected an array of strings", what)
			return nil
		}
		var out []string
		for it := v.Children(); it.Next(); {
			e := it.Node()
			if e.Kind != unstable.String || len(e.Data) == 0 {
				errorf(e.Raw, "%s: expected a non-empty string", what)
				continue
			}
			out = append(out, string(e.Data))
		}
		return out
	}
	// perLang records lang → strings of an avoid or allow table.
	perLang := func(dst map[string][]string, field string, k []*unstable.Node, v *unstable.Node) {
		add := func(lang *unstable.Node, val *unstable.Node) {
			dst[string(lang.Data)] = append(dst[string(lang.Data)], list(val, field+"."+string(lang.Data))...)
		}
		switch {
		case len(k) == 2:
			add(k[1], v)
		case len(k) == 1 && v.Kind == unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				kv := it.Node()
				kk := keys(kv)
				if len(kk) != 1 {
					errorf(kk[0].Raw, "%s: expected a language key such as ja", field)
					continue
				}
				add(kk[0], kv.Value())
			}
		default:
			errorf(k[0].Raw, "%s: expected a table of language = [variants], such as %s = { ja = [\"再試行\"] }", field, field)
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.ArrayTable:
			k := keys(e)
			if len(k) != 1 || string(k[0].Data) != "term" {
				errorf(k[0].Raw, "unknown table [[%s]]; expected [[term]]", tomlpos.JoinKey(k))
				cur = nil
				continue
			}
			g.Terms = append(g.Terms, Term{Preferred: map[string]string{}, Avoid: map[string][]string{}, Allow: map[string][]string{}, Pos: ix.Pos(int(k[0].Raw.Offset))})
			cur = &g.Terms[len(g.Terms)-1]
		case unstable.Table:
			k := keys(e)
			errorf(k[0].Raw, "unknown table [%s]; expected [[term]] tables", tomlpos.JoinKey(k))
			cur = nil
		case unstable.KeyValue:
			k, v := keys(e), e.Value()
			if cur == nil {
				errorf(k[0].Raw, "key %s outside a [[term]] table; expected every key under [[term]]", tomlpos.JoinKey(k))
				continue
			}
			switch name := string(k[0].Data); name {
			case "avoid":
				perLang(cur.Avoid, name, k, v)
			case "allow":
				perLang(cur.Allow, name, k, v)
			case "concept", "note":
				if len(k) != 1 || v.Kind != unstable.String {
					errorf(k[0].Raw, "%s: expected a string", name)
					continue
				}
				if name == "concept" {
					cur.Concept = string(v.Data)
				} else {
					cur.Note = string(v.Data)
				}
			default:
				if len(k) != 1 || v.Kind != unstable.String || len(v.Data) == 0 {
					errorf(k[0].Raw, "%s: expected the preferred term in language %q as a non-empty string (or one of concept, note, avoid, allow)", tomlpos.JoinKey(k), name)
					continue
				}
				cur.Preferred[name] = string(v.Data)
			}
		}
	}
	if d, ok := tomlpos.ParseError(&p, ix, len(src), diag.SiteConfig); ok {
		ds = append(ds, d)
	}
	for _, t := range g.Terms {
		if t.Concept == "" {
			ds = append(ds, diag.Errorf(t.Pos, diag.SiteConfig, "[[term]] without a concept; expected concept = \"…\" (the concept in English)").Spanning(ix.LineEnd(t.Pos.Offset)))
		}
		for lang, vs := range t.Avoid {
			if t.Preferred[lang] == "" && len(vs) > 0 {
				ds = append(ds, diag.Errorf(t.Pos, diag.SiteConfig, "term %q lists variants to avoid in %s but no preferred %s term; expected %s = \"…\"", t.Concept, lang, lang, lang).Spanning(ix.LineEnd(t.Pos.Offset)))
			}
		}
	}
	return g, ds
}

// match is a variant found in a text.
type match struct {
	start, end int // byte offsets in the text
	term       *Term
	variant    string
}

// find returns the variants of language lang that text holds, in order of
// position, none overlapping: at one position the longest variant wins.
func (g *Glossary) find(lang, text string) []match {
	if g == nil || text == "" {
		return nil
	}
	var out []match
	for i := range g.Terms {
		t := &g.Terms[i]
		for _, v := range t.Avoid[lang] {
			for _, at := range occurrences(text, v) {
				if t.allowedAt(lang, text, at, at+len(v)) || isASCIIWord(v) && inEnglish(text, at, at+len(v)) {
					continue
				}
				out = append(out, match{at, at + len(v), t, v})
			}
		}
	}
	slices.SortFunc(out, func(a, b match) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	kept := out[:0]
	end := -1
	for _, m := range out {
		if m.start >= end {
			kept = append(kept, m)
			end = m.end
		}
	}
	return kept
}

// allowedAt reports whether text[start:end], an occurrence of a variant,
// lies inside an occurrence of the preferred term or of an allowed form.
func (t *Term) allowedAt(lang, text string, start, end int) bool {
	forms := append([]string{t.Preferred[lang]}, t.Allow[lang]...)
	for _, f := range forms {
		if f == "" || len(f) < end-start {
			continue
		}
		lo := max(0, end-len(f))
		hi := min(len(text), start+len(f))
		for _, at := range occurrences(text[lo:hi], f) {
			if lo+at <= start && lo+at+len(f) >= end {
				return true
			}
		}
	}
	return false
}

// occurrences returns the offsets of v in text: for a variant in ASCII
// letters, whole-word matches in any letter case; otherwise every
// occurrence.
func occurrences(text, v string) []int {
	var out []int
	if isASCIIWord(v) {
		// ASCII letters only, byte for byte: strings.ToLower would change
		// the length of some text (İ, an invalid byte), and the offsets
		// found would no longer be the text's.
		lower := asciiLower(text)
		lv := asciiLower(v)
		for off := 0; ; {
			i := strings.Index(lower[off:], lv)
			if i < 0 {
				return out
			}
			at := off + i
			if !wordByte(text, at-1) && !wordByte(text, at+len(v)) {
				out = append(out, at)
			}
			off = at + 1
		}
	}
	for off := 0; ; {
		i := strings.Index(text[off:], v)
		if i < 0 {
			return out
		}
		out = append(out, off+i)
		_, size := utf8.DecodeRuneInString(text[off+i:])
		off += i + size
	}
}

// inEnglish reports whether text[start:end] lies in a run of three or
// more Latin words (an English quotation or error message such as "no
// healthy upstream" in Japanese prose), where an ASCII variant is the
// quoted original rather than a term of the page's language.
func inEnglish(text string, start, end int) bool {
	lo, hi := start, end
	for lo > 0 && text[lo-1] < utf8.RuneSelf {
		lo--
	}
	for hi < len(text) && text[hi] < utf8.RuneSelf {
		hi++
	}
	return len(strings.Fields(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return ' '
	}, text[lo:hi]))) >= 3
}

// asciiLower returns s with its ASCII capitals in lower case and every
// other byte as it is, so offsets into it are offsets into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// isASCIIWord reports whether v is written in ASCII only.
func isASCIIWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// wordByte reports whether text[i] is an ASCII letter, digit, '_' or '-'
// (a part of the same word as an ASCII variant next to it).
func wordByte(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// finding is the term-glossary diagnostic of m, found at offset base+m.start
// of the file ix indexes.
func (g *Glossary) finding(ix *diag.LineIndex, base int, lang string, m match) diag.Diagnostic {
	pos, end := ix.Span(base+m.start, base+m.end)
	want := m.term.Preferred[lang]
	d := diag.Diagnostic{Pos: pos, End: end, Severity: diag.Warning, Rule: diag.TermGlossary,
		Message: fmt.Sprintf("%q is not this project's %s term for %q; expected %q (%s)", m.variant, lang, m.term.Concept, want, g.File),
		Related: []diag.Related{{Pos: m.term.Pos, Message: fmt.Sprintf("the glossary's entry for %q", m.term.Concept)}},
		Fixes:   []diag.SuggestedFix{{Message: fmt.Sprintf("write %q", want), Edits: []diag.TextEdit{{Pos: pos, End: end.Offset, NewText: want}}}},
	}
	return d
}
