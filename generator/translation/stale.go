package translation

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
)

// Front matter fields a translation carries to record the version of its
// source page it was made from (written by Mark).
const (
	// SourceHashField holds "sha256:HEX" of the source page's body.
	SourceHashField = "evdoc_source_hash"
	// SourceBlocksField holds the short hashes of the source's sections
	// (the text before the first heading, then each heading with its
	// text) in order, space-separated, so a changed section can be named.
	SourceBlocksField = "evdoc_source_blocks"
)

// State is a translation's state relative to its source page.
type State string

// States of a page in one language (see Set.Status).
const (
	StateInSync   State = "in sync"  // marked from the current source
	StateStale    State = "stale"    // the source changed since it was marked
	StateUnmarked State = "unmarked" // translated, never marked
	StateFallback State = "fallback" // an empty placeholder shown from the source
	StateMissing  State = "missing"  // no file: shown from the source
	StateSource   State = "source"   // the page is in the source language
)

// SourceHash returns the content hash of a source page's body.
func SourceHash(p *Page) string {
	h := sha256.Sum256(p.Body())
	return "sha256:" + hex.EncodeToString(h[:])
}

// blockHashes returns a short hash of each section of p (the text before
// the first heading, then each heading with the text up to the next
// heading), in order, with the offset where each starts.
func blockHashes(p *Page) ([]string, []int) {
	d := readDoc(p, nil)
	src := blankFrontMatter(p.Parsed.Source, p.Parsed.BodyStart)
	starts := []int{p.Parsed.BodyStart}
	for _, b := range d.blocks {
		if b.kind == "heading" {
			// the line the heading starts on
			ls := b.start
			for ls > 0 && src[ls-1] != '\n' {
				ls--
			}
			starts = append(starts, ls)
		}
	}
	var hs []string
	var out []int
	for i, st := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		text := bytes.TrimSpace(src[st:max(st, end)])
		if i == 0 && len(text) == 0 {
			continue
		}
		h := sha256.Sum256(text)
		hs = append(hs, hex.EncodeToString(h[:4]))
		out = append(out, st)
	}
	return hs, out
}

var fmFieldRe = map[frontmatter.Format]func(name string) *regexp.Regexp{
	frontmatter.YAML: func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `:.*\n`)
	},
	frontmatter.TOML: func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `[ \t]*=.*\n`)
	},
	frontmatter.JSON: func(name string) *regexp.Regexp {
		return regexp.MustCompile(`"` + regexp.QuoteMeta(name) + `"[ \t]*:[ \t]*"[^"\\\n]*"`)
	},
}

// Mark records in translation t's front matter the version of source s it
// now matches: SourceHashField and SourceBlocksField are set (replaced
// when present, else added: as the first fields of TOML front matter, so
// they stay top-level whatever tables follow; as the last lines of YAML
// front matter; as the first members of a JSON object), written in the
// front matter's own format; no other byte of the file changes. The file
// at path is replaced atomically, and left alone if it changed since t
// was read (fix.ErrChanged).
func Mark(path string, s, t *Page) error {
	src := t.Parsed.Source
	b, err := frontmatter.Split(src)
	if err != nil || b.Format == "" {
		return fmt.Errorf("%s: no front matter (YAML ---, TOML +++ or JSON {…}) to record the source version in", t.Path)
	}
	hs, _ := blockHashes(s)
	fields := []struct{ name, value string }{
		{SourceHashField, SourceHash(s)},
		{SourceBlocksField, strings.Join(hs, " ")},
	}
	head, fm, tail := string(src[:b.Start]), string(src[b.Start:b.End]), src[b.End:]
	var missing []string // lines of the fields not yet present
	for _, f := range fields {
		var line string
		switch b.Format {
		case frontmatter.YAML:
			v := f.value
			if f.name == SourceBlocksField {
				v = strconv.Quote(v)
			}
			line = f.name + ": " + v + "\n"
		case frontmatter.TOML:
			line = f.name + " = " + strconv.Quote(f.value) + "\n"
		case frontmatter.JSON:
			line = strconv.Quote(f.name) + ": " + strconv.Quote(f.value)
		}
		if loc := fmFieldRe[b.Format](f.name).FindStringIndex(fm); loc != nil {
			fm = fm[:loc[0]] + line + fm[loc[1]:]
			continue
		}
		missing = append(missing, line)
	}
	if len(missing) > 0 {
		switch b.Format {
		case frontmatter.YAML:
			if fm != "" && !strings.HasSuffix(fm, "\n") {
				fm += "\n"
			}
			fm += strings.Join(missing, "")
		case frontmatter.TOML:
			fm = strings.Join(missing, "") + fm
		case frontmatter.JSON:
			sep := ","
			if strings.TrimSpace(fm[1:len(fm)-1]) == "" {
				sep = "\n"
			}
			fm = "{\n  " + strings.Join(missing, ",\n  ") + sep + fm[1:]
		}
	}
	out := append([]byte(head+fm), tail...)
	if bytes.Equal(out, src) {
		return nil
	}
	return fix.WriteAtomic(path, src, out)
}

// staleness returns the state of translation t against source s and, when
// stale, the source blocks that are new or changed since t was marked.
func staleness(s, t *Page) (State, []int) {
	if t.IsEmpty() {
		return StateFallback, nil
	}
	recorded, _ := t.FrontMatter[SourceHashField].(string)
	if recorded == "" {
		return StateUnmarked, nil
	}
	if recorded == SourceHash(s) {
		return StateInSync, nil
	}
	old := map[string]bool{}
	if b, ok := t.FrontMatter[SourceBlocksField].(string); ok {
		for _, h := range strings.Fields(b) {
			old[h] = true
		}
	}
	hs, starts := blockHashes(s)
	var changed []int
	for i, h := range hs {
		if !old[h] {
			changed = append(changed, starts[i])
		}
	}
	return StateStale, changed
}

// checkStale warns about a translation whose source changed since it was
// marked, naming the changed source blocks.
func checkStale(s, t *Page) diag.List {
	st, changed := staleness(s, t)
	if st != StateStale {
		return nil
	}
	pos, end := fieldSpan(t, SourceHashField)
	d := diag.Diagnostic{Pos: pos, End: end, Severity: diag.Warning, Rule: diag.TranslationStale}
	var lines []string
	for _, off := range changed {
		pos := s.Parsed.Index.Pos(off)
		lines = append(lines, fmt.Sprint(pos.Line))
		d.Related = append(d.Related, diag.Related{Pos: pos, Message: "changed in the source"})
	}
	if len(lines) == 0 {
		d.Message = fmt.Sprintf("%s changed since this translation was marked (sections removed or reordered); update it, then run evdoc i18n mark %s", s.Path, t.Path)
	} else {
		d.Message = fmt.Sprintf("%s changed since this translation was marked: %d section(s) at line %s; update them, then run evdoc i18n mark %s", s.Path, len(lines), strings.Join(lines, ", "), t.Path)
	}
	return diag.List{d}
}

// fieldSpan is the range of a front matter field's line, else of the
// page's first line.
func fieldSpan(p *Page, name string) (diag.Position, diag.Position) {
	src, _, ix := p.head()
	off := 0
	if b, err := frontmatter.Split(src); err == nil {
		for _, f := range frontmatter.Fields(src, b, []string{name}) {
			off = ix.LineStart(ix.Pos(f.Start).Line)
			break
		}
	}
	return ix.Pos(off), ix.LineEnd(off)
}

// PageStatus is one row of Set.Status: a page (by its source-language
// path, or its own for orphans) and its state in each language.
type PageStatus struct {
	Key       string               `json:"translation_key"`
	Source    string               `json:"source"`
	Languages map[string]LangState `json:"languages"`
}

// LangState is a page's state in one language.
type LangState struct {
	Path     string   `json:"path,omitempty"`
	State    State    `json:"state"`
	Changed  []int    `json:"changed_source_lines,omitempty"`
	Findings []string `json:"findings,omitempty"`
}

// Status returns the state of every source page in every language: in
// sync, stale (with the changed source lines), unmarked, fallback or
// missing, with the parity findings of each translation.
func (s *Set) Status() []PageStatus {
	var out []PageStatus
	for _, k := range s.order {
		g := s.groups[k]
		src := g[s.Source]
		if src == nil {
			continue
		}
		ps := PageStatus{Key: src.Key, Source: src.Path, Languages: map[string]LangState{}}
		ps.Languages[s.Source] = LangState{Path: src.Path, State: StateSource}
		for _, l := range s.Languages {
			if l.Code == s.Source {
				continue
			}
			t := g[l.Code]
			switch {
			case t == nil && src.IsEmpty():
				continue
			case t == nil:
				ps.Languages[l.Code] = LangState{State: StateMissing}
				continue
			}
			st, changed := staleness(src, t)
			ls := LangState{Path: t.Path, State: st}
			for _, off := range changed {
				ls.Changed = append(ls.Changed, src.Parsed.Index.Pos(off).Line)
			}
			if st != StateFallback {
				for _, d := range parity(src, t, s.Units) {
					ls.Findings = append(ls.Findings, d.String())
				}
			}
			ps.Languages[l.Code] = ls
		}
		out = append(out, ps)
	}
	return out
}

// Find returns the page whose repository path is path, or nil.
func (s *Set) Find(path string) *Page {
	for _, p := range s.Pages {
		if p.Path == path {
			return p
		}
	}
	return nil
}

// blankFrontMatter returns a copy of src with its front matter (the bytes
// before bodyStart) blanked to spaces, line breaks kept, so offsets and
// lines stay those of the page.
func blankFrontMatter(src []byte, bodyStart int) []byte {
	b := append([]byte(nil), src...)
	for i := 0; i < bodyStart; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return b
}
