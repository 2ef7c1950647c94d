package claim

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
)

// blankFrontMatter returns a copy of src with its bytes before bodyStart
// blanked: each becomes a space, line endings stay.
func blankFrontMatter(src []byte, bodyStart int) []byte {
	blanked := make([]byte, len(src))
	copy(blanked, src)
	for i := 0; i < bodyStart; i++ {
		if blanked[i] != '\n' {
			blanked[i] = ' '
		}
	}
	return blanked
}

// appendRawHTML records raw HTML at src[off:end] unless it is a comment;
// end < 0 means to the end of the line.
func appendRawHTML(ps []Extent, ix *diag.LineIndex, src []byte, off, end int) []Extent {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	if bytes.HasPrefix(src[off:], []byte("<!--")) {
		return ps
	}
	r := Extent{Pos: ix.Pos(off), End: ix.LineEnd(off)}
	if end >= 0 {
		_, r.End = ix.Span(off, end)
	}
	return append(ps, r)
}

// SplitFrontMatter finds YAML ("---"), TOML ("+++") or JSON ("{ … }")
// front matter at the start of src, as Hugo does (see package
// frontmatter). It returns the raw front matter (for JSON the object,
// braces included) and the offset where the body starts; a page without
// front matter returns nil and 0. An opening delimiter without a closing
// one is reported as ok=false.
func SplitFrontMatter(src []byte) (fm []byte, bodyStart int, ok bool) {
	b, err := frontmatter.Split(src)
	if err != nil {
		return nil, 0, false
	}
	return b.Text(src), b.BodyStart, true
}

// Parse reads a page. path names it in positions. Claims with an empty or
// malformed destination are reported as errors; the claims that could be
// read are still returned.
func Parse(md goldmark.Markdown, path string, src []byte) (*Page, diag.List) {
	return parse(md, path, src, true, nil)
}

// ParseScratch is Parse with the page's claims and their quantities
// placed in the room sc holds when it is large enough (see Scratch).
func ParseScratch(md goldmark.Markdown, path string, src []byte, sc *Scratch) (*Page, diag.List) {
	return parse(md, path, src, true, sc)
}

// ParseText reads Markdown text that is not a content file (a figure's
// caption or title): as Parse, but nothing at its start is front matter.
func ParseText(md goldmark.Markdown, path string, src []byte) (*Page, diag.List) {
	return parse(md, path, src, false, nil)
}

func parse(md goldmark.Markdown, path string, src []byte, page bool, sc *Scratch) (*Page, diag.List) {
	ix := diag.NewLineIndex(path, src)
	p := &Page{Path: path, Source: src, Index: ix}
	var b frontmatter.Block
	if page {
		var err error
		b, err = frontmatter.Split(src)
		if err != nil {
			var ue *frontmatter.UnclosedError
			var de *frontmatter.DelimiterError
			at := 0
			switch {
			case errors.As(err, &ue):
				at = ue.Open
			case errors.As(err, &de):
				at = de.Open
			}
			return p, diag.List{diag.Errorf(ix.Pos(at), diag.PageFrontMatter, "%v", err).Spanning(ix.LineEnd(at))}
		}
	}
	p.FrontMatter, p.BodyStart = b.Text(src), b.BodyStart
	body := b.BodyStart
	// Blank the front matter byte for byte so offsets stay file offsets.
	blanked := blankFrontMatter(src, body)
	var scErr diag.List
	if page {
		var d *diag.Diagnostic
		if p.Shortcodes, p.HugoSyntax, d = scanHugoSyntax(ix, blanked, body); d != nil {
			scErr = diag.List{*d}
		}
	}
	doc := md.Parser().Parse(text.NewReader(blanked))
	if page {
		readStrikes(p, md, doc, blanked)
	}
	var errs diag.List
	// room for every claim written inline: a Claim is 400 bytes, and
	// growing the slice by appending copied them several times
	if n := bytes.Count(blanked, []byte("](ev:")); n > 0 {
		p.Claims = sc.claimRoom(n)
	}
	shortcodes := prose.ShortcodeSpans(blanked)
	// numbers in a shortcode call are the call's, but those in an
	// argument a reader sees (a figure caption) are published like prose
	args := textArgs(p.Shortcodes)
	exempt := cutSpans(shortcodes, args)
	sl := &slab{} // the claims' literals and offsets
	if sc != nil {
		sl = &sc.slab // reset by Scratch.Recycle
	}
	var litAt [][2]int // each claim's literal in sl.lit
	if n := cap(p.Claims); n > 0 {
		litAt = make([][2]int, 0, n)
	}
	var skip [2]int // the byte range of the prose number reported last
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.AutoLink:
			url := string(t.URL(blanked))
			if strings.HasPrefix(url, Scheme) {
				start := nodeStart(t)
				end := ix.LineEnd(start)
				if lit := "<" + url + ">"; bytes.HasPrefix(blanked[start:], []byte(lit)) {
					_, end = ix.Span(start, start+len(lit))
				}
				errs = append(errs, diag.Errorf(ix.Pos(start), diag.ClaimSyntax, "autolink <%s> cannot be a claim; expected [number](%s)", url, url).Spanning(end))
				return ast.WalkSkipChildren, nil
			}
			// Hugo's link render hook gets an autolink too, an email
			// address as a mailto: URL.
			if t.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
				url = "mailto:" + url
			}
			start := nodeStart(t)
			n := len(t.Label(blanked))
			if start < len(blanked) && blanked[start] == '<' {
				n += 2
			}
			_, end := ix.Span(start, min(start+n, len(blanked)))
			p.Links = append(p.Links, Link{Destination: url, Pos: ix.Pos(start), End: end})
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			dest := string(t.Destination)
			if strings.HasPrefix(dest, Scheme) {
				pos := ix.Pos(nodeStart(t)) // at "!["
				textEnd := pos.Offset + 2   // ![]: the "]" follows the "!["
				mark := len(sl.lit)
				sp := textSpan(t, blanked, sl)
				sl.lit = sl.lit[:mark] // an image's text is not kept
				if sp.start >= 0 {
					textEnd = sp.end
				}
				_, end, _ := destinationRange(ix, blanked, textEnd, t.Destination)
				errs = append(errs, diag.Errorf(pos, diag.ClaimSyntax, "image ![…](%s) cannot be a claim; expected a link [number](%s)", dest, dest).Spanning(end))
				return ast.WalkSkipChildren, nil
			}
			// an image's text is its alt text: published, and no claim
			// can be written in it
			textEnd := nodeStart(t) + 2
			_ = ast.Walk(t, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				if tx, ok := n.(*ast.Text); ok && entering {
					for _, pn := range prose.ScanText(ix, blanked, tx.Segment.Start, tx.Segment.Stop) {
						pn.In = "the alt text of image " + dest
						p.Unchecked = append(p.Unchecked, pn)
					}
					textEnd = max(textEnd, tx.Segment.Stop)
				}
				return ast.WalkContinue, nil
			})
			p.Unchecked = appendTitleNumbers(p.Unchecked, ix, blanked, textEnd, t.Destination, t.Title, "the title of image "+dest)
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			// A "<" inside a shortcode call is an argument Hugo hands to
			// the shortcode's template, not raw HTML of the page.
			if t.Lines().Len() > 0 && !inSpans(shortcodes, t.Lines().At(0).Start) {
				p.RawHTML = appendRawHTML(p.RawHTML, ix, blanked, t.Lines().At(0).Start, -1)
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			if t.Segments.Len() > 0 && !inSpans(shortcodes, t.Segments.At(0).Start) {
				p.RawHTML = appendRawHTML(p.RawHTML, ix, blanked, t.Segments.At(0).Start, t.Segments.At(t.Segments.Len()-1).Stop)
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			heading := false
			for a := t.Parent(); a != nil; a = a.Parent() {
				if _, ok := a.(*ast.Heading); ok {
					heading = true
				}
			}
			p.Prose = append(p.Prose, prose.Scan(ix, blanked, t.Segment.Start, t.Segment.Stop, heading && t.PreviousSibling() == nil, exempt, &skip)...)
			p.proseText = append(p.proseText, [2]int{t.Segment.Start, t.Segment.Stop})
			return ast.WalkContinue, nil
		}
		link, isLink := n.(*ast.Link)
		if !isLink {
			return ast.WalkContinue, nil
		}
		dest := string(link.Destination)
		mark := len(sl.lit)
		sp := textSpan(link, blanked, sl)
		start, end := sp.start, sp.end
		if start < 0 || !strings.HasPrefix(dest, Scheme) {
			sl.lit = sl.lit[:mark] // only claims keep their text
		}
		if start < 0 {
			if strings.HasPrefix(dest, Scheme) {
				// [](ev:…): from the "[" to the end of the destination
				start := nodeStart(link)
				_, dend, _ := destinationRange(ix, blanked, start+1, link.Destination)
				errs = append(errs, diag.Errorf(ix.Pos(start), diag.ClaimLiteral, "claim link to %s has no text; expected [number](%s)", dest, dest).Spanning(dend))
				return ast.WalkSkipChildren, nil
			}
			_, dend, _ := destinationRange(ix, blanked, nodeStart(link)+1, link.Destination)
			p.Links = append(p.Links, Link{Destination: dest, Pos: ix.Pos(nodeStart(link)), End: dend})
			return ast.WalkContinue, nil // an image inside is still checked
		}
		destAt := destinationAt(blanked, end)
		dpos, dend, raw := destinationRange(ix, blanked, end, link.Destination)
		if !strings.HasPrefix(dest, Scheme) {
			p.Links = append(p.Links, Link{Destination: dest, Pos: dpos, End: dend})
			p.Unchecked = appendTitleNumbers(p.Unchecked, ix, blanked, end, link.Destination, link.Title, "the title of link "+dest)
			return ast.WalkContinue, nil // its text is prose
		}
		// Literal and Parsed are set after the walk, from one string
		// of all the literals
		c := Claim{Page: path, Pos: ix.Pos(start), End: end, RefPos: dpos, DestEnd: dend, Destination: dest, Offsets: sp.offsets}
		litAt = append(litAt, [2]int{mark, len(sl.lit)})
		lit := sp.literal // for messages
		switch {
		case sp.code:
			errs = append(errs, diag.Errorf(c.Pos, diag.ClaimLiteral, "claim text %q is a code span; code spans hold configuration, not measurements: write the number as plain text", lit).Spanning(ix.Pos(end)))
		case sp.image:
			errs = append(errs, diag.Errorf(c.Pos, diag.ClaimLiteral, "claim text holds an image; expected the number as plain text").Spanning(ix.Pos(end)))
		}
		if dest == ExemptDestination {
			c.Exempt, c.Reason = true, strings.TrimSpace(string(link.Title))
			if c.Reason == "" {
				errs = append(errs, diag.Errorf(dpos, diag.ClaimExemptReason, "exemption marker without a reason; expected [%s](%s \"why these numbers are not measurements\")", lit, ExemptDestination).Spanning(dend))
			}
			p.Claims = append(p.Claims, c)
			return ast.WalkSkipChildren, nil
		}
		refs, err := parseRefs(dest, sl)
		if err != "" {
			errs = append(errs, diag.Errorf(dpos, diag.ClaimSyntax, "%s", err).Spanning(dend))
		}
		c.Refs = refs
		// Each reference's own position, for findings about one of them.
		off := len(Scheme)
		if n := len(refs); n > 0 {
			// both from the slab: each has its half
			both := sl.positions(2 * n)
			c.RefPositions, c.RefEnds = both[:0:n], both[n:n:2*n]
		}
		rest, more := strings.TrimPrefix(dest, Scheme), true
		for item := 0; more && item < len(refs); item++ {
			var part string
			part, rest, more = strings.Cut(rest, ",")
			lead := len(part) - len(strings.TrimLeft(part, " "))
			if raw {
				c.RefPositions = append(c.RefPositions, ix.Pos(destAt+off+lead))
				c.RefEnds = append(c.RefEnds, ix.Pos(destAt+off+len(strings.TrimRight(part, " "))))
			} else {
				c.RefPositions = append(c.RefPositions, dpos)
				c.RefEnds = append(c.RefEnds, dend)
			}
			off += len(part) + 1
		}
		p.Claims = append(p.Claims, c)
		return ast.WalkSkipChildren, nil
	})
	errs = append(errs, brokenClaims(ix, blanked, p.proseText)...)
	lits := string(sl.lit)
	// the quantities of all the page's literals, in one allocation
	runs := make([]int, len(p.Claims))
	total := 0
	for i := range p.Claims {
		runs[i] = literal.DigitRuns(lits[litAt[i][0]:litAt[i][1]])
		total += runs[i]
	}
	var qs []literal.Quantity
	if total > 0 {
		qs = sc.quantityRoom(total)
	}
	// a literal written again on the page (a value quoted in a table and
	// in prose, 약 38초 in two sections) is read once: literal → the
	// index of the claim that read it without an error
	read := make(map[string]int, len(p.Claims))
	for i := range p.Claims {
		c := &p.Claims[i]
		c.Literal = lits[litAt[i][0]:litAt[i][1]]
		at := len(qs)
		switch j, ok := read[c.Literal]; {
		case c.Exempt:
			c.Parsed, c.ParseErr = literal.ParseInto(c.Literal, qs[at:at:at+runs[i]], false)
		case ok:
			c.Parsed = sameLiteral(p.Claims[j].Parsed, qs[at:at:at+runs[i]])
		default:
			// read by an earlier page (litCache), or read now
			if l, ok := cachedLiteral(c.Literal); ok {
				c.Parsed = sameLiteral(l, qs[at:at:at+runs[i]])
			} else {
				c.Parsed, c.ParseErr = readLiteral(c.Literal, qs[at:at:at+runs[i]])
			}
			if c.ParseErr == nil {
				read[c.Literal] = i
			}
		}
		qs = qs[:at+runs[i]]
	}
	if sc != nil {
		p.quantities = qs // handed back by Scratch.Recycle
	}
	p.Blocks, p.inlines = collectBlocks(doc, len(src)-body, sc)
	if sc == nil {
		p.inlines = nil
	}
	if sc == nil && cap(p.Claims) > len(p.Claims)+len(p.Claims)/4 {
		// a page's claims live as long as the site: drop append's spare room
		p.Claims = append(make([]Claim, 0, len(p.Claims)), p.Claims...)
	}
	// footnote definitions are walked after the body: report in source order
	slices.SortStableFunc(p.Prose, func(a, b prose.Number) int { return a.Pos.Offset - b.Pos.Offset })
	markArgs(p.Prose, args)
	return p, append(errs, scErr...)
}

// sameLiteral is what literal.ParseInto(lit, qs, true) returns for a
// literal that read as l without an error: l with its quantities copied
// into qs (empty, with room for DigitRuns(lit) of them) as the parse
// appends them there. A quantity's spread and parts are l's: nothing
// writes to a parsed literal's.
func sameLiteral(l literal.Literal, qs []literal.Quantity) literal.Literal {
	if l.Quantities == nil {
		return l
	}
	qs = append(qs, l.Quantities...)
	l.Quantities = qs[:len(qs):len(qs)]
	return l
}
