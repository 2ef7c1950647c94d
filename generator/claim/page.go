package claim

import (
	"sort"

	"github.com/evdoc-lab/evdoc/generator/claim/literal"
	"github.com/evdoc-lab/evdoc/generator/claim/prose"
	"github.com/evdoc-lab/evdoc/generator/diag"
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
	// quantities holds the quantities of all the claims' literals when
	// the page was parsed with a Scratch (ParseScratch), for
	// Scratch.Recycle.
	quantities []literal.Quantity
	// inlines is the slice Blocks' inlines share, kept when the page was
	// parsed with a Scratch.
	inlines []Inline

	// Blocks lists the headings, paragraphs, table cells and code blocks
	// of the body with their inline text, in document order (see Block):
	// the translation checks align a page with its translation by them
	// without parsing the page again.
	Blocks []Block
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
