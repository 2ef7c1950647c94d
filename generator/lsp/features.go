package lsp

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/viewer"
)

// parse returns the document's parse and its claims' verdicts, made
// once per version and evidence generation. Only the document asked
// about last keeps them: a page of 480 claims holds about 1.3 MB of
// them, which every open page kept would add up (40 open pages of the
// benchmark site took the server from 64 to 116 MiB); a request on
// another page makes them again.
func (s *Server) parse(d *document) (*claim.Page, []check.Result) {
	if s.site == nil {
		return nil, nil
	}
	if d.parsed == nil || d.gen != s.generation || d.pver != d.version {
		for _, o := range s.docs {
			o.parsed, o.results = nil, nil
		}
		d.parsed, _ = claim.Parse(s.site.Config.NewMarkdown(), d.path, d.text.src)
		d.results, _ = check.Claims(d.parsed, s.site.Store, s.opt.Check)
		d.gen, d.pver = s.generation, d.version
	}
	return d.parsed, d.results
}

// claimAt returns the index of the claim whose link ([literal](ev:…))
// holds the byte offset off, and the index of the reference the offset
// lies in (-1: none).
func claimAt(results []check.Result, off int) (int, int) {
	for i, r := range results {
		c := r.Claim
		end := max(c.DestEnd.Offset, c.End) + 1 // the ")"
		if off < c.Pos.Offset-1 || off > end {
			continue
		}
		for j := range c.RefPositions {
			if j < len(c.RefEnds) && off >= c.RefPositions[j].Offset && off <= c.RefEnds[j].Offset {
				return i, j
			}
		}
		return i, -1
	}
	return -1, -1
}

func (s *Server) doc(uri string) (*document, error) {
	d := s.docs[uri]
	if d == nil {
		return nil, fmt.Errorf("%s is not open; expected didOpen first", uri)
	}
	return d, nil
}

// rawLine returns the line of file holding pos, with the token
// [pos, pos+len(token)) marked ⟦…⟧ when it is there.
func rawLine(f *files, pos diag.Position, token string) string {
	t := f.of(pos.File)
	start, end, ok := t.lineBounds(pos.Line - 1)
	if !ok {
		return ""
	}
	line := t.src[start:end]
	at := pos.Column - 1
	if token != "" && at >= 0 && at+len(token) <= len(line) && string(line[at:at+len(token)]) == token {
		return string(line[:at]) + "⟦" + token + "⟧" + string(line[at+len(token):])
	}
	return string(line)
}

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil || s.site == nil {
		return nil, err
	}
	_, results := s.parse(d)
	off := d.text.offset(p.Position)
	i, ref := claimAt(results, off)
	if i < 0 {
		return nil, nil
	}
	r := results[i]
	c := r.Claim
	f := newFiles(s)
	var b strings.Builder
	fmt.Fprintf(&b, "**[%s](%s)**\n\n", c.Literal, c.Destination)
	if c.Exempt {
		fmt.Fprintf(&b, "Exempt: %s\n", c.Reason)
	}
	for j, bd := range r.Bindings {
		if ref >= 0 && j != ref {
			continue
		}
		v, ok := s.site.Store.Lookup(bd.Ref)
		if !ok {
			fmt.Fprintf(&b, "`%s`: no such evidence value\n\n", bd.Ref)
			continue
		}
		sh := viewer.ShowBinding(c, j, bd, v, s.site.Store)
		fmt.Fprintf(&b, "`%s` = %s", bd.Ref, sh.Value)
		if sh.Written != "" {
			fmt.Fprintf(&b, " (at the precision written: %s)", sh.Written)
		}
		b.WriteString("\n\n")
		if sh.Derivation != nil {
			dv := sh.Derivation
			fmt.Fprintf(&b, "derived at %s as `%s`: %s = %s = %s\n\n", v.Pos, v.Raw, dv.Expr, dv.Numbers, dv.Result)
			for _, in := range dv.Inputs {
				writeRaw(&b, f, in)
			}
		} else {
			writeRaw(&b, f, v)
		}
	}
	b.WriteString(s.verdict(d, c))
	rg := d.text.span(d.text.diagPos(d.path, max(c.Pos.Offset-1, 0)), d.text.diagPos(d.path, max(c.DestEnd.Offset, c.End)+1))
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()}, Range: &rg}, nil
}

// writeRaw writes the raw line of value v with its token marked and
// file:line.
func writeRaw(b *strings.Builder, f *files, v *evidence.Value) {
	if v.Derived {
		fmt.Fprintf(b, "`%s` = %s (derived at %s: %s)\n\n", v.Name, v.Value, v.Pos, v.Raw)
		return
	}
	fmt.Fprintf(b, "%s:%d\n```\n%s\n```\n", v.Pos.File, v.Pos.Line, rawLine(f, v.Pos, v.Raw))
}

// verdict describes the findings on claim c of document d, or that it
// matches.
func (s *Server) verdict(d *document, c claim.Claim) string {
	lo, hi := c.Pos.Offset-1, max(c.DestEnd.Offset, c.End)+1
	var b strings.Builder
	for _, x := range s.judged[d.path] {
		if x.Pos.Offset >= lo && x.Pos.Offset <= hi && x.Pos.Line > 0 {
			fmt.Fprintf(&b, "**%s** %s: %s\n\n", x.Rule, x.Severity, x.Message)
		}
	}
	if b.Len() == 0 {
		if c.Exempt {
			return "Verdict: exempt, not judged\n"
		}
		return "Verdict: matches its evidence at the precision written\n"
	}
	return "Verdict:\n\n" + b.String()
}

func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil || s.site == nil {
		return nil, err
	}
	_, results := s.parse(d)
	i, ref := claimAt(results, d.text.offset(p.Position))
	if i < 0 {
		return nil, nil
	}
	f := newFiles(s)
	var out []protocol.Location
	for j, bd := range results[i].Bindings {
		if ref >= 0 && j != ref {
			continue
		}
		v, ok := s.site.Store.Lookup(bd.Ref)
		if !ok {
			continue
		}
		out = append(out, rawLocations(f, s.site.Store, v)...)
	}
	return out, nil
}

// rawLocations returns where value v was read: its raw token, or the raw
// tokens a derived value was computed from.
func rawLocations(f *files, st *evidence.Store, v *evidence.Value) []protocol.Location {
	if !v.Derived {
		end := v.Pos
		end.Column += len(v.Raw)
		end.Offset += len(v.Raw)
		return []protocol.Location{f.location(v.Pos, end)}
	}
	var out []protocol.Location
	for _, p := range v.Inputs {
		t := f.of(p.File)
		_, e, _ := t.lineBounds(p.Line - 1)
		out = append(out, protocol.Location{URI: f.s.uri(p.File), Range: protocol.Range{Start: t.at(p), End: t.position(e)}})
	}
	return out
}

func (s *Server) references(_ *glsp.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil || s.site == nil {
		return nil, err
	}
	refs := map[string]bool{}
	if s.isPage(d.path) {
		_, results := s.parse(d)
		i, ref := claimAt(results, d.text.offset(p.Position))
		if i >= 0 {
			for j, r := range results[i].Claim.Refs {
				if ref < 0 || j == ref {
					refs[r] = true
				}
			}
		}
	} else if d.path != "" {
		line := int(p.Position.Line) + 1
		for _, v := range s.site.Store.Values() {
			on := v.Pos.File == d.path && v.Pos.Line == line
			for _, in := range v.Inputs {
				on = on || in.File == d.path && in.Line == line
			}
			if on {
				refs[v.Ref] = true
			}
		}
	}
	if len(refs) == 0 {
		return nil, nil
	}
	return s.citing(refs), nil
}

// citing returns the location of every claim of the site citing one of
// refs: each page whose source names one of their value names is
// parsed (an open page's buffer).
func (s *Server) citing(refs map[string]bool) []protocol.Location {
	var names [][]byte
	for r := range refs {
		_, n, _ := strings.Cut(r, "/")
		names = append(names, []byte(n))
	}
	md := s.site.Config.NewMarkdown()
	f := newFiles(s)
	var out []protocol.Location
	for _, pg := range s.site.Pages {
		src, err := s.site.PageSource(pg)
		if err != nil {
			continue
		}
		hit := false
		for _, n := range names {
			hit = hit || bytes.Contains(src, n)
		}
		if !hit {
			continue
		}
		parsed, _ := claim.Parse(md, pg.Path, src)
		for _, c := range parsed.Claims {
			for _, r := range c.Refs {
				if refs[r] {
					t := newText(src)
					f.text[pg.Path] = t
					out = append(out, protocol.Location{URI: s.uri(pg.Path), Range: t.span(c.Pos, parsed.Index.Pos(c.End))})
					break
				}
			}
		}
	}
	return out
}

// completion completes the reference being typed after "](ev:": set ids,
// then the value names of the set with their value, unit and raw line,
// those matching the number the link text writes first.
func (s *Server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil || s.site == nil {
		return nil, err
	}
	off := d.text.offset(p.Position)
	start, _, ok := d.text.lineBounds(int(p.Position.Line))
	if !ok {
		return nil, nil
	}
	line := d.text.src[start:off]
	k := bytes.LastIndex(line, []byte("]("+claim.Scheme))
	if k < 0 {
		return nil, nil
	}
	typed := string(line[k+2+len(claim.Scheme):])
	if strings.ContainsAny(typed, " )\t") {
		return nil, nil
	}
	lit := ""
	if lb := bytes.LastIndexByte(line[:k], '['); lb >= 0 {
		lit = string(line[lb+1 : k])
	}
	parts := strings.Split(typed, ",")
	cur := parts[len(parts)-1]
	set := ""
	for _, part := range parts[:len(parts)-1] {
		if a, _, ok := strings.Cut(part, "/"); ok {
			set = a
		}
	}
	curStart := off - len(cur)
	var items []protocol.CompletionItem
	if a, b, ok := strings.Cut(cur, "/"); ok {
		items = s.valueItems(d, a, lit, len(parts)-1, off-len(b), off)
	} else {
		if set != "" {
			items = s.valueItems(d, set, lit, len(parts)-1, curStart, off)
		}
		items = append(items, s.setItems(d, curStart, off)...)
	}
	return protocol.CompletionList{IsIncomplete: false, Items: items}, nil
}

func (s *Server) setItems(d *document, a, b int) []protocol.CompletionItem {
	rg := protocol.Range{Start: d.text.position(a), End: d.text.position(b)}
	kind := protocol.CompletionItemKindModule
	var out []protocol.CompletionItem
	for _, set := range s.site.Store.Sets {
		id := set.Manifest.ID
		detail := fmt.Sprintf("%s (%d values)", set.Manifest.Title, set.Len())
		sortText := "2" + id
		out = append(out, protocol.CompletionItem{Label: id + "/", Kind: &kind, Detail: &detail, SortText: &sortText, TextEdit: protocol.TextEdit{Range: rg, NewText: id + "/"}})
	}
	return out
}

// valueItems lists the values of set for the reference at index nth of
// the destination, replacing [a, b) of the document; a value matching
// the nth number of the literal lit (or its only one) sorts first.
func (s *Server) valueItems(d *document, set, lit string, nth, a, b int) []protocol.CompletionItem {
	var st *evidence.Set
	for _, x := range s.site.Store.Sets {
		if x.Manifest.ID == set {
			st = x
		}
	}
	if st == nil {
		return nil
	}
	var qs []literal.Quantity
	var approx literal.Approx
	if l, err := literal.ParseLiteral(lit); err == nil {
		qs, approx = l.Quantities, l.Approx
		if nth < len(qs) && len(qs) > 1 {
			qs = qs[nth : nth+1]
		}
	}
	rg := protocol.Range{Start: d.text.position(a), End: d.text.position(b)}
	kind := protocol.CompletionItemKindValue
	f := newFiles(s)
	var out []protocol.CompletionItem
	first := true
	vals := st.Sorted()
	matched := make([]bool, len(vals))
	for i, v := range vals {
		for _, q := range qs {
			if ok, _ := check.Match(q, approx, v, s.opt.Check); ok {
				matched[i] = true
			}
		}
	}
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return matched[order[i]] && !matched[order[j]] })
	for _, i := range order {
		v := vals[i]
		raw := strings.TrimSpace(strings.NewReplacer("⟦", "", "⟧", "").Replace(rawLine(f, v.Pos, "")))
		if v.Derived {
			raw = "derived: " + v.Raw
		}
		if len(raw) > 120 {
			raw = raw[:120] + "…"
		}
		u := v.Unit
		if u == "" {
			u = "(no unit)"
		}
		detail := fmt.Sprintf("%s %s — %s", v.Value, u, raw)
		doc := protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: fmt.Sprintf("%s\n```\n%s\n```", v.Pos, rawLine(f, v.Pos, v.Raw))}
		sortText := "1" + v.Name
		item := protocol.CompletionItem{Label: v.Name, Kind: &kind, Detail: &detail, Documentation: doc, SortText: &sortText, TextEdit: protocol.TextEdit{Range: rg, NewText: v.Name}}
		if matched[i] {
			sortText = "0" + v.Name
			if first {
				yes := true
				item.Preselect = &yes
				first = false
			}
		}
		out = append(out, item)
	}
	return out
}

// codeAction offers, for the findings in the range: evdoc fix's rewrite
// of a stale number, the claim a translation lacks (its number written
// as prose in the section, bound to the source claim's destination) and
// the exemption of an unbound prose number.
func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil || s.site == nil || !s.isPage(d.path) {
		return nil, err
	}
	parsed, _ := s.parse(d)
	a, b := d.text.offset(p.Range.Start), d.text.offset(p.Range.End)
	f := newFiles(s)
	kind := protocol.CodeActionKindQuickFix
	var out []protocol.CodeAction
	// the claims the page lacks as a translation, by the offset of the
	// prose number each binds: offered on the translation-claims finding
	// and on the claim-unbound finding of that number
	type missing struct {
		te    protocol.TextEdit
		title string
		from  diag.Diagnostic
	}
	lacks := map[int]missing{}
	for _, x := range s.judged[d.path] {
		if x.Rule == diag.TranslationClaims {
			if te, title, at, ok := s.missingClaim(d, parsed, x); ok {
				lacks[at] = missing{te, title, x}
			}
		}
	}
	for _, x := range s.judged[d.path] {
		end := max(x.End.Offset, x.Pos.Offset)
		if !x.Pos.IsValid() || end < a || x.Pos.Offset > b {
			continue
		}
		ld := f.diagnostic(d.text, x)
		act := func(title string, edits []protocol.TextEdit, preferred bool) {
			ca := protocol.CodeAction{Title: title, Kind: &kind, Diagnostics: []protocol.Diagnostic{ld}, Edit: &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{d.uri: edits}}}
			if preferred {
				ca.IsPreferred = &preferred
			}
			out = append(out, ca)
		}
		switch x.Rule {
		case diag.ClaimMismatch:
			edits, rest, _ := fix.Plan([]*claim.Page{parsed}, diag.List{x}, fix.Options{})
			var tes []protocol.TextEdit
			var parts []string
			for _, e := range edits[d.path] {
				tes = append(tes, protocol.TextEdit{Range: protocol.Range{Start: d.text.position(e.Start), End: d.text.position(e.End)}, NewText: e.New})
				parts = append(parts, fmt.Sprintf("%q → %q", e.Old, e.New))
			}
			if len(tes) > 0 {
				act("evdoc fix: rewrite "+strings.Join(parts, ", "), tes, true)
				continue
			}
			for _, r := range rest {
				if strings.HasPrefix(string(r.Rule), "fix-") {
					out = append(out, protocol.CodeAction{Title: "evdoc fix cannot rewrite this number", Kind: &kind, Diagnostics: []protocol.Diagnostic{ld},
						Disabled: &struct {
							Reason string `json:"reason"`
						}{r.Message}})
				}
			}
		case diag.ClaimUnbound, diag.ClaimNumberWord:
			if m, ok := lacks[x.Pos.Offset]; ok {
				act(m.title, []protocol.TextEdit{m.te}, true)
				out[len(out)-1].Diagnostics = append(out[len(out)-1].Diagnostics, f.diagnostic(d.text, m.from))
			}
			txt := string(d.text.src[x.Pos.Offset:end])
			act(fmt.Sprintf("mark %q as not a measurement (%s)", txt, claim.ExemptDestination), []protocol.TextEdit{{
				Range:   protocol.Range{Start: d.text.position(x.Pos.Offset), End: d.text.position(end)},
				NewText: fmt.Sprintf("[%s](%s %q)", txt, claim.ExemptDestination, "not a measurement"),
			}}, false)
		case diag.TranslationClaims:
			for _, m := range lacks {
				if m.from.Pos == x.Pos && m.from.Message == x.Message {
					act(m.title, []protocol.TextEdit{m.te}, true)
				}
			}
		}
	}
	return out, nil
}

// missingClaim returns the edit that writes the claim a translation
// lacks (a translation-claims finding "SOURCE quotes KEY as [LIT] in this
// section; this page does not", whose related position is the source
// claim): the prose number of the finding's section that states the
// source claim's number, with the source literal's unit after it when
// the page writes it so, becomes a claim with the source claim's
// destination. It reports false when the section states that number
// nowhere in prose, or states it more than once (which one is the
// claim's is the author's choice).
func (s *Server) missingClaim(d *document, parsed *claim.Page, x diag.Diagnostic) (protocol.TextEdit, string, int, bool) {
	if len(x.Related) == 0 || !strings.Contains(x.Message, "this page does not") {
		return protocol.TextEdit{}, "", 0, false
	}
	src := x.Related[0].Pos
	var srcClaim *claim.Claim
	for _, pg := range s.site.Pages {
		if pg.Path != src.File {
			continue
		}
		text, err := s.site.PageSource(pg)
		if err != nil {
			return protocol.TextEdit{}, "", 0, false
		}
		sp, _ := claim.Parse(s.site.Config.NewMarkdown(), pg.Path, text)
		for i := range sp.Claims {
			if sp.Claims[i].Pos.Offset == src.Offset {
				srcClaim = &sp.Claims[i]
			}
		}
	}
	if srcClaim == nil || srcClaim.ParseErr != nil || len(srcClaim.Parsed.Quantities) != 1 {
		return protocol.TextEdit{}, "", 0, false
	}
	q := srcClaim.Parsed.Quantities[0]
	suffix := srcClaim.Literal[min(q.NumEnd, len(srcClaim.Literal)):]
	// the section: from the finding to the next heading line
	lo := x.Pos.Offset
	hi := len(d.text.src)
	if i := bytes.Index(d.text.src[min(lo+1, hi):], []byte("\n#")); i >= 0 {
		hi = lo + 1 + i
	}
	var hits []prose.Number
	for _, pn := range parsed.Prose {
		if pn.Pos.Offset < lo || pn.Pos.Offset >= hi {
			continue
		}
		l, err := literal.ParseLiteral(pn.Text)
		if err != nil || len(l.Quantities) != 1 || !l.Quantities[0].Value.Equal(q.Value) {
			continue
		}
		hits = append(hits, pn)
	}
	if len(hits) != 1 {
		return protocol.TextEdit{}, "", 0, false
	}
	pn := hits[0]
	end := pn.End
	if suffix != "" && bytes.HasPrefix(d.text.src[end:], []byte(suffix)) {
		end += len(suffix)
	}
	txt := string(d.text.src[pn.Pos.Offset:end])
	newText := fmt.Sprintf("[%s](%s)", txt, srcClaim.Destination)
	return protocol.TextEdit{Range: protocol.Range{Start: d.text.position(pn.Pos.Offset), End: d.text.position(end)}, NewText: newText},
		fmt.Sprintf("write the source's claim here: %s", newText), pn.Pos.Offset, true
}
