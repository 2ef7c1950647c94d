package claim

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// BlockKind is the kind of a Block.
type BlockKind uint8

// Block kinds, in the terms of CommonMark and GFM.
const (
	// BlockHeading is an ATX or setext heading; Level is its level.
	BlockHeading BlockKind = iota + 1
	// BlockText is a paragraph (also in a list item, block quote or
	// footnote definition) or the text of a tight list item.
	BlockText
	// BlockTable opens a GFM table; its rows and cells follow. It has no
	// inlines.
	BlockTable
	// BlockRow is a row of the table opened last, the header row
	// included. It has no inlines.
	BlockRow
	// BlockCell is a cell of the row before it.
	BlockCell
	// BlockCode is a fenced or indented code block; its inlines are its
	// content lines (InlineCode).
	BlockCode
)

// Block is one unit of a page's body as the translation checks align a
// page with its translation, in document order: headings, paragraphs,
// tables (a BlockTable, then a BlockRow before each row's BlockCells) and
// code blocks. Blocks inside HTML blocks, and text that is in none of
// these blocks (definition list terms), are not listed.
//
// Start is the byte offset of the page where the block starts: its first
// line, else its first text node (0 when it has neither). Inlines are its
// text in order (see Inline); their offsets are offsets of the page file.
type Block struct {
	Kind    BlockKind
	Level   int
	Start   int
	Inlines []Inline
}

// InlineKind is the kind of an Inline.
type InlineKind uint8

// Inline kinds.
const (
	// InlineText is a text node: the page's bytes [Start, Stop), whose
	// character references (&#52;) read as the characters they stand for.
	InlineText InlineKind = iota + 1
	// InlineCode is text in a code span, or a line of a code block: the
	// page's bytes [Start, Stop), literally.
	InlineCode
	// InlineBreak is a soft or hard line break after the text node that
	// ends at Start: it reads as one space.
	InlineBreak
	// InlineString is text goldmark made up (the typographer's
	// replacements, such as "&rsquo;"): Value.
	InlineString
	// InlineClaim is a claim link other than an exemption marker; its text
	// is not part of the block's text. Start is the offset of its first
	// child when that child is a text node (the claim's Pos), else -1.
	InlineClaim
	// InlineLink opens a link whose destination is a path of the site
	// (see sitePath: "/docs/x/", "../x/", "x.md"): Value is the
	// destination, Start the offset of
	// its first child when that is a text node, else 0. The link's text
	// follows as further inlines.
	InlineLink
)

// Inline is one piece of a block's text (see InlineKind). Raw HTML,
// autolinks, images and the text of claim links are left out; links and
// emphasis contribute their text.
type Inline struct {
	Kind        InlineKind
	Start, Stop int
	Value       string
}

// collectBlocks lists the blocks of doc (see Block), parsed from a
// source of size bytes, and returns the slice their inlines share; when
// sc is not nil both are placed in its room (see Scratch).
func collectBlocks(doc ast.Node, size int, sc *Scratch) ([]Block, []Inline) {
	// room for a page of prose and tables: about one inline per 20 bytes
	// and one block per 100
	var blocks []Block
	var inlines []Inline
	// spans records each block's inlines as a range of one slice: the
	// blocks share its backing array.
	var spans [][2]int
	if sc != nil {
		blocks, inlines, spans = sc.blocks[:0], sc.inlines[:0], sc.spans[:0]
		sc.blocks, sc.inlines = nil, nil
	}
	if cap(blocks) == 0 {
		blocks = make([]Block, 0, size/100+1)
	}
	if cap(inlines) == 0 {
		inlines = make([]Inline, 0, size/20+1)
	}
	add := func(n ast.Node, kind BlockKind, level int) {
		from := len(inlines)
		if kind == BlockCode {
			for i := 0; i < n.Lines().Len(); i++ {
				sg := n.Lines().At(i)
				inlines = append(inlines, Inline{Kind: InlineCode, Start: sg.Start, Stop: sg.Stop})
			}
		} else if kind != BlockTable && kind != BlockRow {
			inlines = appendInlines(inlines, n)
		}
		blocks = append(blocks, Block{Kind: kind, Level: level, Start: firstOffset(n)})
		spans = append(spans, [2]int{from, len(inlines)})
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Heading:
			add(t, BlockHeading, t.Level)
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph, *ast.TextBlock:
			add(t, BlockText, 0)
			return ast.WalkSkipChildren, nil
		case *east.Table:
			add(t, BlockTable, 0)
		case *east.TableHeader, *east.TableRow:
			add(t, BlockRow, 0)
		case *east.TableCell:
			add(t, BlockCell, 0)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			add(t, BlockCode, 0)
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	// a page's blocks live as long as the page: no more than a quarter
	// spare room (unless the room goes back to sc)
	if sc == nil && cap(inlines) > len(inlines)+len(inlines)/4 {
		inlines = append([]Inline(nil), inlines...)
	}
	if sc == nil && cap(blocks) > len(blocks)+len(blocks)/4 {
		blocks = append([]Block(nil), blocks...)
	}
	for i, sp := range spans {
		if sp[0] < sp[1] {
			blocks[i].Inlines = inlines[sp[0]:sp[1]:sp[1]]
		}
	}
	if sc != nil {
		sc.spans = spans[:0]
		// no blocks (inlines): nil, as without sc; the room stays sc's
		if len(blocks) == 0 {
			sc.blocks, blocks = blocks, nil
		}
		if len(inlines) == 0 {
			sc.inlines, inlines = inlines, nil
		}
	}
	return blocks, inlines
}

// appendInlines appends the inline text of n's children to out.
func appendInlines(out []Inline, n ast.Node) []Inline {
	_, inCode := n.(*ast.CodeSpan)
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			kind := InlineText
			if inCode {
				kind = InlineCode
			}
			out = append(out, Inline{Kind: kind, Start: t.Segment.Start, Stop: t.Segment.Stop})
			if t.SoftLineBreak() || t.HardLineBreak() {
				out = append(out, Inline{Kind: InlineBreak, Start: t.Segment.Stop})
			}
		case *ast.String:
			out = append(out, Inline{Kind: InlineString, Value: string(t.Value)})
		case *ast.CodeSpan:
			out = appendInlines(out, t)
		case *ast.Link:
			// a claim's destination is not copied into a string
			if bytes.HasPrefix(t.Destination, scheme) && string(t.Destination) != ExemptDestination {
				off := -1
				if tx, ok := t.FirstChild().(*ast.Text); ok {
					off = tx.Segment.Start
				}
				out = append(out, Inline{Kind: InlineClaim, Start: off})
				continue
			}
			dest := string(t.Destination)
			if sitePath(dest) {
				start := 0
				if tx, ok := t.FirstChild().(*ast.Text); ok {
					start = tx.Segment.Start
				}
				out = append(out, Inline{Kind: InlineLink, Start: start, Value: dest})
			}
			out = appendInlines(out, t)
		case *ast.RawHTML, *ast.AutoLink, *ast.Image:
			continue
		default:
			out = appendInlines(out, c)
		}
	}
	return out
}

// firstOffset is the byte offset where block n starts: its first line,
// else its first text node, else 0.
func firstOffset(n ast.Node) int {
	if n.Lines() != nil && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
		if o := firstOffset(c); o > 0 {
			return o
		}
	}
	return 0
}

// sitePath reports whether a link destination is a path of the site the
// theme's render hook resolves: root-relative ("/docs/x/", not
// "//host") or relative ("../x/", "./x", "x.md"); not a URL with a
// scheme (https:, mailto:), a fragment or query of the page itself
// ("#top", "?q") or empty.
func sitePath(dest string) bool {
	if dest == "" || strings.HasPrefix(dest, "//") || dest[0] == '#' || dest[0] == '?' {
		return false
	}
	if i := strings.IndexAny(dest, ":/?#"); i >= 0 && dest[i] == ':' {
		return false
	}
	return true
}

// scheme is Scheme as bytes.
var scheme = []byte(Scheme)
