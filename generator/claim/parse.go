package claim

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/gohugoio/hugo-goldmark-extensions/extras"
	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
)

// Scheme is the link destination prefix that marks a claim.
const Scheme = "ev:"

// Claim is one quoted number in a page.
//
// Literal is the link text as CommonMark reads it: Markdown emphasis
// marks removed, backslash escapes and character references decoded
// ("86&percnt;" is "86%", "40&nbsp;ms" is "40\u00a0ms").
// Pos is the first byte of the literal; End the byte offset just past it.
// Refs are the references of the destination, each expanded to
// "SET/NAME"; RefPos is the first byte of the destination ("ev:").
type Claim struct {
	Page    string        `json:"page"`
	Literal string        `json:"literal"`
	Pos     diag.Position `json:"pos"`
	End     int           `json:"end"`
	Refs    []string      `json:"refs"`
	RefPos  diag.Position `json:"ref_pos"`
	// DestEnd is the position just past the destination RefPos starts
	// (the end of its line when the destination is not written as
	// goldmark read it: escapes, a reference link).
	DestEnd diag.Position `json:"-"`
	// Destination is the link destination as goldmark read it; the
	// site's link render hook receives the same string.
	Destination string `json:"destination"`
	// Exempt marks a deliberate exemption, written
	// [text](ev:exempt "reason"): the numbers in text are not
	// measurements. Reason is the link title.
	Exempt bool   `json:"exempt,omitempty"`
	Reason string `json:"reason,omitempty"`
	// RefPositions gives the position of each reference of Refs in the
	// destination.
	RefPositions []diag.Position `json:"-"`
	// RefEnds gives the position just past each reference of Refs.
	RefEnds []diag.Position `json:"-"`
	// Offsets gives, for each byte of Literal, its offset in the page
	// source, or -1 for a byte goldmark made up (typographer quotes). A
	// byte decoded from a character reference maps to its "&", an escaped
	// character to itself (see DecodeInline and SourceEnd).
	Offsets []int `json:"-"`
	// Parsed is Literal read by literal.ParseLiteral, once, when the page
	// is parsed; ParseErr is its error (Parsed is then partial). Check,
	// coverage, fix and the translation checks all use this one form.
	Parsed   literal.Literal `json:"-"`
	ParseErr error           `json:"-"`
}

// SourceRange maps the literal's bytes [a, b) to the source range they
// were read from. It reports false when those bytes are not one
// contiguous, identical run of the source (inline markup splits them, or
// goldmark made some up).
func (c Claim) SourceRange(src []byte, a, b int) (int, int, bool) {
	if a < 0 || b > len(c.Offsets) || a >= b || c.Offsets[a] < 0 {
		return 0, 0, false
	}
	start := c.Offsets[a]
	for i := a; i < b; i++ {
		if c.Offsets[i] != start+(i-a) {
			return 0, 0, false
		}
	}
	end := start + (b - a)
	if end > len(src) || string(src[start:end]) != c.Literal[a:b] {
		return 0, 0, false
	}
	return start, end, true
}

// ExemptDestination is the destination of a deliberate exemption marker.
const ExemptDestination = Scheme + "exempt"

// Link is an ordinary (non-claim) link destination with its position, kept
// so the checker can resolve internal links.
type Link struct {
	Destination string
	Pos         diag.Position
	// Pos is where the destination starts (the "[" for a link without
	// text); End is the position just past the destination as written,
	// or the end of its line when goldmark's destination is not the
	// source's bytes (escapes, a reference link).
	End diag.Position
}

// Extent is a range of a page's source: Pos is its first byte, End the
// position just past its last.
type Extent struct {
	Pos, End diag.Position
}

// Page is the result of parsing one Markdown page.
type Page struct {
	Path        string
	Source      []byte
	FrontMatter []byte // raw front matter without delimiters; nil if none
	BodyStart   int    // byte offset of the first byte after the front matter
	Claims      []Claim
	Links       []Link
	Index       *diag.LineIndex
	// Prose lists the numbers found in text outside claims, exemption
	// markers, code, raw HTML and shortcode calls (see Coverage).
	Prose []prose.Number
	// proseText holds the byte range of each text node of prose (the
	// text nodes Prose was read from), for ProseWords.
	proseText [][2]int
	// Unchecked lists the numbers the page publishes where no claim can
	// be written: an image's alt text and title, a link's title. Their
	// In says where each is; exempt numbers (a version, a date) are
	// listed with their Rule.
	Unchecked []prose.Number
	// RawHTML holds each raw HTML inline tag, and the first line of each
	// raw HTML block, of the body other than a comment: Hugo omits raw
	// HTML (unsafe = false) with a warning, which fails build --strict on
	// it.
	RawHTML []Extent
	// Shortcodes lists the body's shortcode calls, as Hugo's page lexer
	// reads them (up to the first it cannot read, which Parse reports as
	// page-shortcode); the site knows which names have a template.
	Shortcodes []ShortcodeCall
	// HugoSyntax are the byte ranges of the body Hugo's goldmark never
	// reads as written, in order: each shortcode call (Hugo puts a
	// placeholder in its place before Markdown, so its arguments' "*"
	// and quotes are no text) and the "/*" and "*/" of each call written
	// as a comment ({{</* x */>}} reads {{< x >}}). A check of what a
	// reader sees skips them.
	HugoSyntax [][2]int
	// strikes are the body's strikethrough nodes, read by a goldmark of
	// configuration *strikesOf (nil when not NewMarkdownWith's); see
	// Strikethroughs.
	strikes   []Strike
	strikesOf *MarkdownConfig

	// Blocks lists the headings, paragraphs, table cells and code blocks
	// of the body with their inline text, in document order (see Block):
	// the translation checks align a page with its translation by them
	// without parsing the page again.
	Blocks []Block
}

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

// ProseWords returns the numbers written as words and followed by a
// counter in prose (세 번, 二回, ふたつ), for the opt-in claim-number-word
// rule; they are not part of Prose or coverage. Only that rule needs
// them: they are read on each call, from the text nodes Parse found.
func (p *Page) ProseWords() []prose.Number {
	if len(p.proseText) == 0 {
		return nil
	}
	blanked := blankFrontMatter(p.Source, p.BodyStart)
	args := textArgs(p.Shortcodes)
	shortcodes := cutSpans(prose.ShortcodeSpans(blanked), args)
	var out []prose.Number
	for _, t := range p.proseText {
		out = append(out, prose.Words(p.Index, blanked, t[0], t[1], shortcodes)...)
	}
	markArgs(out, args)
	return out
}

// markArgs sets In on each of ns that lies inside one of args (in
// source order).
func markArgs(ns []prose.Number, args []textArg) {
	if len(args) == 0 {
		return
	}
	for k := range ns {
		off := ns[k].Pos.Offset
		i := sort.Search(len(args), func(i int) bool { return args[i].end > off })
		if i < len(args) && args[i].start <= off {
			ns[k].In = args[i].in
		}
	}
}

// inSpans reports whether off lies inside one of spans ([start, end)
// pairs in order, as prose.ShortcodeSpans returns them).
func inSpans(spans [][]int, off int) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > off })
	return i < len(spans) && spans[i][0] <= off
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

// NewMarkdown returns a goldmark instance configured as Hugo configures
// goldmark by default (NewMarkdownWith of the zero MarkdownConfig): for a
// page outside any site, and for tests. Every stage that reads a site's
// pages (check, build, translation, figure texts) uses NewMarkdownWith of
// the site's configuration instead, so that all read one document.
func NewMarkdown() goldmark.Markdown {
	return NewMarkdownWith(MarkdownConfig{})
}

// MarkdownConfig is what a site's Hugo configuration (markup.goldmark)
// changes in how goldmark reads its pages. The zero value is Hugo's
// default: every extension Hugo enables by default on, passthrough off.
type MarkdownConfig struct {
	// PassthroughInline and PassthroughBlock are the delimiters (open,
	// close) of Hugo's passthrough extension
	// (markup.goldmark.extensions.passthrough, enabled): text between
	// them is a formula (KaTeX, MathJax) that Hugo passes through
	// unrendered, and its numbers are the formula's, not prose.
	PassthroughInline, PassthroughBlock [][2]string
	// NoTable … NoTypographer are set when the configuration turns the
	// extension off (markup.goldmark.extensions.table = false,
	// typographer.disable = true …): Hugo then reads "| a |" as text, a
	// "~~" as text, a bare URL as text, and so on.
	NoTable, NoStrikethrough, NoLinkify, NoTaskList, NoDefinitionList, NoFootnote, NoTypographer bool
	// NoAutoHeadingID and NoAttribute are set when the configuration
	// turns markup.goldmark.parser.autoHeadingID or
	// parser.attribute.title off.
	NoAutoHeadingID, NoAttribute bool
	// Delete, Insert, Mark, Subscript and Superscript are set when the
	// configuration enables that inline tag of Hugo's extras extension
	// (markup.goldmark.extensions.extras.delete.enable …): Hugo then
	// reads ~~a~~ as deleted text, ++a++ inserted, ==a== marked, H~2~O
	// with a subscript and x^2^ with a superscript.
	Delete, Insert, Mark, Subscript, Superscript bool
	// EscapedSpace reads as Hugo reads the pages evdoc stages: goldmark's
	// CJK extension with escapedSpace, which evdoc turns on for Hugo (see
	// hugoconf.Config.HugoEnv), so that "\ " (an escaped space) is nothing.
	EscapedSpace bool
}

// Staged returns c as Hugo reads the pages evdoc stages (EscapedSpace).
func (c MarkdownConfig) Staged() MarkdownConfig {
	c.EscapedSpace = true
	return c
}

// NewMarkdownWith returns a goldmark instance configured as Hugo
// configures goldmark for a site with configuration c. It is the one
// constructor of every goldmark evdoc reads a page with.
func NewMarkdownWith(c MarkdownConfig) goldmark.Markdown {
	var exts []goldmark.Extender
	for _, e := range []struct {
		off bool
		ext goldmark.Extender
	}{
		{c.NoTable, extension.Table}, {c.NoStrikethrough, extension.Strikethrough}, {c.NoLinkify, extension.Linkify},
		{c.NoTaskList, extension.TaskList}, {c.NoDefinitionList, extension.DefinitionList}, {c.NoFootnote, extension.Footnote},
		{c.NoTypographer, extension.Typographer},
	} {
		if !e.off {
			exts = append(exts, e.ext)
		}
	}
	if c.Delete || c.Insert || c.Mark || c.Subscript || c.Superscript {
		// Hugo adds the extension whatever it enables; the tags' parse
		// priorities, not the order, decide which reads a "~" first
		exts = append(exts, extras.New(extras.Config{
			Delete: extras.DeleteConfig{Enable: c.Delete}, Insert: extras.InsertConfig{Enable: c.Insert},
			Mark: extras.MarkConfig{Enable: c.Mark}, Subscript: extras.SubscriptConfig{Enable: c.Subscript},
			Superscript: extras.SuperscriptConfig{Enable: c.Superscript},
		}))
	}
	if c.EscapedSpace {
		exts = append(exts, extension.NewCJK(extension.WithEscapedSpace()))
	}
	if len(c.PassthroughInline) > 0 || len(c.PassthroughBlock) > 0 {
		delims := func(ds [][2]string) []passthrough.Delimiters {
			var out []passthrough.Delimiters
			for _, d := range ds {
				out = append(out, passthrough.Delimiters{Open: d[0], Close: d[1]})
			}
			return out
		}
		exts = append(exts, passthrough.New(passthrough.Config{InlineDelimiters: delims(c.PassthroughInline), BlockDelimiters: delims(c.PassthroughBlock)}))
	}
	var opts []parser.Option
	if !c.NoAutoHeadingID {
		opts = append(opts, parser.WithAutoHeadingID())
	}
	if !c.NoAttribute {
		opts = append(opts, parser.WithAttribute())
	}
	return &configured{goldmark.New(goldmark.WithExtensions(exts...), goldmark.WithParserOptions(opts...)), c}
}

// configured is a goldmark instance with the configuration
// NewMarkdownWith made it with, so that a page knows how it was read
// (see Page.Strikethroughs).
type configured struct {
	goldmark.Markdown
	cfg MarkdownConfig
}

// A Strike is a strikethrough node of a page's body as its parse read
// it: the offsets of the first and past the last byte of the text under
// it (-1 when it has none), and the index of the strikethrough it is
// inside in the page's list (-1 when none).
type Strike struct {
	Start, Stop, Parent int
}

// Strikethroughs returns the strikethrough nodes of the page's body in
// document order, as the parse read them, when the page was parsed as a
// content file with a goldmark of configuration c (NewMarkdownWith(c)):
// the translation checks read them without parsing the page again. ok is
// false otherwise (the caller parses the page itself).
func (p *Page) Strikethroughs(c MarkdownConfig) (strikes []Strike, ok bool) {
	if p.strikesOf == nil || !reflect.DeepEqual(*p.strikesOf, c) {
		return nil, false
	}
	return p.strikes, true
}

// readStrikes records the strikethrough nodes of doc, the parse of the
// page p with md, when md is NewMarkdownWith's.
func readStrikes(p *Page, md goldmark.Markdown, doc ast.Node, blanked []byte) {
	m, ok := md.(*configured)
	if !ok {
		return
	}
	p.strikesOf = &m.cfg
	if bytes.IndexByte(blanked[p.BodyStart:], '~') < 0 {
		return // no "~", no strikethrough
	}
	var open []int // the strikethroughs being walked, outermost first
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*extast.Strikethrough); !ok {
			return ast.WalkContinue, nil
		}
		if !entering {
			open = open[:len(open)-1]
			return ast.WalkContinue, nil
		}
		st := Strike{Start: -1, Stop: -1, Parent: -1}
		if len(open) > 0 {
			st.Parent = open[len(open)-1]
		}
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if t, ok := c.(*ast.Text); ok && entering {
				if st.Start < 0 {
					st.Start = t.Segment.Start
				}
				st.Stop = t.Segment.Stop
			}
			return ast.WalkContinue, nil
		})
		open = append(open, len(p.strikes))
		p.strikes = append(p.strikes, st)
		return ast.WalkContinue, nil
	})
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
	return parse(md, path, src, true)
}

// ParseText reads Markdown text that is not a content file (a figure's
// caption or title): as Parse, but nothing at its start is front matter.
func ParseText(md goldmark.Markdown, path string, src []byte) (*Page, diag.List) {
	return parse(md, path, src, false)
}

func parse(md goldmark.Markdown, path string, src []byte, page bool) (*Page, diag.List) {
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
		p.Claims = make([]Claim, 0, n)
	}
	shortcodes := prose.ShortcodeSpans(blanked)
	// numbers in a shortcode call are the call's, but those in an
	// argument a reader sees (a figure caption) are published like prose
	args := textArgs(p.Shortcodes)
	exempt := cutSpans(shortcodes, args)
	var sl slab        // the claims' literals and offsets
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
				sp := textSpan(t, blanked, &sl)
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
		sp := textSpan(link, blanked, &sl)
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
		litEnd := ix.Pos(end)
		switch {
		case sp.code:
			errs = append(errs, diag.Errorf(c.Pos, diag.ClaimLiteral, "claim text %q is a code span; code spans hold configuration, not measurements: write the number as plain text", lit).Spanning(litEnd))
		case sp.image:
			errs = append(errs, diag.Errorf(c.Pos, diag.ClaimLiteral, "claim text holds an image; expected the number as plain text").Spanning(litEnd))
		}
		if dest == ExemptDestination {
			c.Exempt, c.Reason = true, strings.TrimSpace(string(link.Title))
			if c.Reason == "" {
				errs = append(errs, diag.Errorf(dpos, diag.ClaimExemptReason, "exemption marker without a reason; expected [%s](%s \"why these numbers are not measurements\")", lit, ExemptDestination).Spanning(dend))
			}
			p.Claims = append(p.Claims, c)
			return ast.WalkSkipChildren, nil
		}
		refs, err := parseRefs(dest, &sl)
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
		qs = make([]literal.Quantity, 0, total)
	}
	for i := range p.Claims {
		c := &p.Claims[i]
		c.Literal = lits[litAt[i][0]:litAt[i][1]]
		at := len(qs)
		c.Parsed, c.ParseErr = literal.ParseInto(c.Literal, qs[at:at:at+runs[i]], !c.Exempt)
		qs = qs[:at+runs[i]]
	}
	p.Blocks = collectBlocks(doc, len(src)-body)
	if cap(p.Claims) > len(p.Claims)+len(p.Claims)/4 {
		// a page's claims live as long as the site: drop append's spare room
		p.Claims = append(make([]Claim, 0, len(p.Claims)), p.Claims...)
	}
	// footnote definitions are walked after the body: report in source order
	slices.SortStableFunc(p.Prose, func(a, b prose.Number) int { return a.Pos.Offset - b.Pos.Offset })
	markArgs(p.Prose, args)
	return p, append(errs, scErr...)
}

// span is a link's text: its byte range in the source, the text with
// inline markup removed and backslash escapes and character references
// decoded (as CommonMark gives a text node's value; a code span's text
// stays as written), the source offset of each byte of that text (see
// DecodeInline; -1 for bytes goldmark made up, such as typographer quotes;
// a soft line break maps to the line ending), and whether the text holds
// a code span or an image.
type span struct {
	start, end int
	// literal is the text, in the page's literal buffer (see slab); it
	// is valid until the next textSpan
	literal []byte
	offsets []int
	code    bool
	image   bool
}

// slab holds, for one page, the text and offsets of its links' literals
// one after another: a claim's Literal and Offsets are parts of it, not
// two allocations each.
type slab struct {
	lit  []byte          // literal bytes
	offs []int           // the current chunk of offsets
	refs []string        // the current chunk of references
	pos  []diag.Position // the current chunk of reference positions
}

// positions returns an empty slice of capacity n from the slab's chunk
// of positions, as ints does.
func (sl *slab) positions(n int) []diag.Position {
	if cap(sl.pos)-len(sl.pos) < n {
		sl.pos = make([]diag.Position, 0, max(n, 256))
	}
	at := len(sl.pos)
	sl.pos = sl.pos[:at+n]
	return sl.pos[at : at : at+n]
}

// strings returns an empty slice of capacity n from the slab's chunk of
// references, as ints does.
func (sl *slab) strings(n int) []string {
	if cap(sl.refs)-len(sl.refs) < n {
		sl.refs = make([]string, 0, max(n, 256))
	}
	at := len(sl.refs)
	sl.refs = sl.refs[:at+n]
	return sl.refs[at : at : at+n]
}

// ints returns an empty slice of capacity n from the slab's chunk of
// offsets (a new chunk when it is full). Appending beyond n does not
// write into the slab.
func (sl *slab) ints(n int) []int {
	if cap(sl.offs)-len(sl.offs) < n {
		sl.offs = make([]int, 0, max(n, 1024))
	}
	at := len(sl.offs)
	sl.offs = sl.offs[:at+n]
	return sl.offs[at : at : at+n]
}

// textSpan collects the text of a link (or image) node, appending it to
// sl.lit. start is -1 for a link without text.
func textSpan(link ast.Node, src []byte, sl *slab) span {
	sp := span{start: -1, end: -1}
	at := len(sl.lit)
	b := sl.lit
	if n := textSpanLen(link); n > 0 {
		b = slices.Grow(b, n)
		sp.offsets = sl.ints(n)
	}
	addSeg := func(seg text.Segment) {
		if sp.start < 0 || seg.Start < sp.start {
			sp.start = seg.Start
		}
		if seg.Stop > sp.end {
			sp.end = seg.Stop
		}
		b = append(b, seg.Value(src)...)
		for i := seg.Start; i < seg.Stop; i++ {
			sp.offsets = append(sp.offsets, i)
		}
	}
	_ = ast.Walk(link, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Text:
			// the text node's value, as CommonMark reads it: escapes and
			// character references decoded (86\%, 86&percnt;, 40&nbsp;ms)
			seg := t.Segment
			if bytes.IndexByte(seg.Value(src), '\\') < 0 && bytes.IndexByte(seg.Value(src), '&') < 0 {
				addSeg(seg) // the common case: nothing to decode
			} else {
				if sp.start < 0 || seg.Start < sp.start {
					sp.start = seg.Start
				}
				sp.end = max(sp.end, seg.Stop)
				dec, offs := DecodeInline(src, seg.Start, seg.Stop)
				b = append(b, dec...)
				sp.offsets = append(sp.offsets, offs[:len(dec)]...)
			}
			if t.SoftLineBreak() {
				b = append(b, ' ')
				sp.offsets = append(sp.offsets, t.Segment.Stop)
			}
		case *ast.String:
			b = append(b, t.Value...)
			for range t.Value {
				sp.offsets = append(sp.offsets, -1)
			}
		case *ast.CodeSpan:
			sp.code = true
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if tx, ok := c.(*ast.Text); ok {
					addSeg(tx.Segment)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			if n != link {
				sp.image = true
			}
		}
		return ast.WalkContinue, nil
	})
	sl.lit = b
	sp.literal = b[at:]
	return sp
}

// textSpanLen is the length of the text textSpan collects from link.
func textSpanLen(link ast.Node) int {
	n := 0
	_ = ast.Walk(link, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			n += t.Segment.Len()
			if t.SoftLineBreak() {
				n++
			}
		case *ast.String:
			n += len(t.Value)
		case *ast.CodeSpan:
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if tx, ok := c.(*ast.Text); ok {
					n += tx.Segment.Len()
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return n
}

// destinationRange returns the range of an inline link's destination in
// src, the link's text ending at textEnd, and whether it is dest's bytes
// as written. When it is not (escapes, entities, a reference link) the
// range runs from the "](" (or textEnd) to the end of that line.
func destinationRange(ix *diag.LineIndex, src []byte, textEnd int, dest []byte) (pos, end diag.Position, raw bool) {
	at := destinationAt(src, textEnd)
	if at >= 0 && bytes.HasPrefix(src[at:], dest) {
		pos, end = ix.Span(at, at+len(dest))
		return pos, end, true
	}
	if at < 0 {
		at = textEnd
	}
	return ix.Pos(at), ix.LineEnd(at), false
}

// appendTitleNumbers appends to ns the numbers of the title of the
// inline link or image whose text ends at textEnd (its "]"): the title a
// reader sees as a tooltip, where no claim can be written. in says where
// the title is. A title goldmark read from a reference definition, or
// whose source the destination's end does not lead to, is not read.
func appendTitleNumbers(ns []prose.Number, ix *diag.LineIndex, src []byte, textEnd int, dest, title []byte, in string) []prose.Number {
	if len(title) == 0 || !prose.HasDigit(title) {
		return ns
	}
	at := destinationAt(src, textEnd)
	if at < 0 || !bytes.HasPrefix(src[at:], dest) {
		return ns
	}
	i := at + len(dest)
	if at > 0 && src[at-1] == '<' && i < len(src) && src[i] == '>' {
		i++
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i >= len(src) {
		return ns
	}
	closer := src[i]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return ns
	}
	j := i + 1
	for j < len(src) && src[j] != closer {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(src) {
		return ns
	}
	for _, pn := range prose.ScanText(ix, src, i+1, j) {
		pn.In = in
		ns = append(ns, pn)
	}
	return ns
}

// nodeStart returns the source offset goldmark recorded for an inline
// node: the "[" of a link, the "![" of an image, the "<" of an autolink;
// 0 when it has none.
func nodeStart(n ast.Node) int {
	return max(n.Pos(), 0)
}

// destinationAt returns the offset of an inline link's destination: the
// byte after the "](" (and an optional "<") that closes the link text
// ending at textEnd, or -1 for a reference link ([text][label]).
func destinationAt(src []byte, textEnd int) int {
	i := textEnd
	for i < len(src) && (src[i] == '*' || src[i] == '_' || src[i] == '~' || src[i] == '`') {
		i++ // closing emphasis, strikethrough or code span marks
	}
	if i+1 >= len(src) || src[i] != ']' || src[i+1] != '(' {
		return -1
	}
	i += 2
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
		i++
	}
	if i < len(src) && src[i] == '<' {
		i++
	}
	return i
}

// ParseRefs splits a claim destination ("ev:SET/NAME,NAME,SET/NAME") into
// full references. It returns a message describing the first problem, or "".
func ParseRefs(dest string) ([]string, string) {
	return parseRefs(dest, nil)
}

// parseRefs is ParseRefs, taking the slice of references from sl when
// it is not nil.
func parseRefs(dest string, sl *slab) ([]string, string) {
	body := strings.TrimPrefix(dest, Scheme)
	if strings.TrimSpace(body) == "" {
		return nil, "empty evidence reference; expected ev:SET/NAME"
	}
	var refs []string // nil until the first reference, as callers expect
	add := func(ref string) {
		if refs == nil {
			if n := strings.Count(body, ",") + 1; sl != nil {
				refs = sl.strings(n)
			} else {
				refs = make([]string, 0, n)
			}
		}
		refs = append(refs, ref)
	}
	set := ""
	for rest, more := body, true; more; {
		var item string
		item, rest, more = strings.Cut(rest, ",")
		item = strings.TrimSpace(item)
		if item == "" {
			return refs, "empty item in evidence reference list; expected ev:SET/NAME[,NAME…]"
		}
		if i := strings.IndexByte(item, '/'); i >= 0 {
			set = item[:i]
			name := item[i+1:]
			if set == "" || name == "" || strings.Contains(name, "/") {
				return refs, "malformed evidence reference " + strings.TrimSpace(set+"/"+name) + "; expected SET/NAME"
			}
			add(item) // SET/NAME as written
			continue
		} else if set == "" {
			return refs, "evidence reference " + item + " has no set; expected SET/NAME first"
		}
		add(set + "/" + item)
	}
	return refs, ""
}

// brokenClaims reports each [text](ev:…) that CommonMark does not read as
// a link, so that its text is prose and its number no claim: an "ev:"
// in a text node (text, the byte ranges of the page's text nodes) right
// after "](" (spaces around the "(" and a "<" as an author may write
// them). The message says what keeps it from being a link, at the "ev:".
func brokenClaims(ix *diag.LineIndex, src []byte, text [][2]int) diag.List {
	var errs diag.List
	for _, t := range text {
		for off := t[0]; off < t[1]; {
			k := bytes.Index(src[off:t[1]], []byte(Scheme))
			if k < 0 {
				break
			}
			at := off + k
			off = at + len(Scheme)
			if d := brokenClaim(ix, src, at); d != nil {
				errs = append(errs, *d)
			}
		}
	}
	return errs
}

// brokenClaim returns the claim-syntax error of the "ev:" at src[at] in
// prose text when "](" comes before it, or nil.
func brokenClaim(ix *diag.LineIndex, src []byte, at int) *diag.Diagnostic {
	j := at
	if j > 0 && src[j-1] == '<' {
		j--
	}
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j == 0 || src[j-1] != '(' {
		return nil
	}
	paren := j - 1 // the "("
	for j = paren; j > 0 && (src[j-1] == ' ' || src[j-1] == '\t'); j-- {
	}
	if j == 0 || src[j-1] != ']' || j > 1 && src[j-2] == '\\' {
		return nil // no "](", or \](: the author keeps it text
	}
	bracket := j - 1 // the "]"
	lineEnd := ix.LineEnd(at)
	dest := src[at:lineEnd.Offset]
	if i := bytes.IndexByte(dest, ')'); i >= 0 {
		dest = dest[:i]
	}
	var msg string
	switch {
	case len(dest) > len(Scheme) && (dest[len(Scheme)] == ' ' || dest[len(Scheme)] == '\t'):
		msg = "ev: destination has a space after the scheme; write ev:SET/NAME"
	case paren > bracket+1:
		msg = "claim text and its (ev:…) destination are apart: a space between \"]\" and \"(\" makes the text prose; write [number](ev:SET/NAME)"
	case bytes.IndexByte(src[at:lineEnd.Offset], ')') < 0:
		msg = "ev: destination has no closing \")\" on its line; write [number](ev:SET/NAME)"
	case bytes.ContainsAny(dest, " \t"):
		msg = fmt.Sprintf("ev: destination %q holds a space; a destination ends at a space (only a quoted title may follow): write ev:SET/NAME[,NAME…] without spaces", string(dest))
	case !opensOnLine(src[ix.LineStart(ix.Pos(bracket).Line):bracket]):
		msg = fmt.Sprintf("\"](%s)\" closes no link text: no \"[\" opens it on its line, so its number is no claim; write [number](%s)", string(dest), string(dest))
	default:
		msg = fmt.Sprintf("[…](%s) is not read as a link, so its number is no claim; write [number](ev:SET/NAME)", string(dest))
	}
	d := diag.Errorf(ix.Pos(at), diag.ClaimSyntax, "%s", msg).Spanning(lineEnd)
	return &d
}

// opensOnLine reports whether the text of a line before a "]" holds a
// "[" that no "]" closes before it.
func opensOnLine(before []byte) bool {
	k := bytes.LastIndexByte(before, '[')
	return k >= 0 && bytes.IndexByte(before[k+1:], ']') < 0
}
