package claim

import (
	"bytes"
	"reflect"

	"github.com/gohugoio/hugo-goldmark-extensions/extras"
	"github.com/gohugoio/hugo-goldmark-extensions/passthrough"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
)

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
	// parser.attribute.title off. The heading ids autoHeadingID makes
	// are never read (see NewMarkdownWith): only NoAttribute changes
	// what a parse reads.
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
	// parser.WithAutoHeadingID (c.NoAutoHeadingID false) is left out:
	// it only sets an "id" attribute on each heading, which nothing
	// evdoc reads of a parse does (evdoc renders no HTML); generating the
	// ids took 0.8% of the CPU samples of `go test ./generator/checker
	// -bench CheckBenchSite -benchtime 3x -cpuprofile` (500 pages, at
	// 132c5b3, 2026-12-07)
	var opts []parser.Option
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
