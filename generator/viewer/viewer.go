package viewer

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Evidence viewer windows: a raw file is shown on pages of at most
// windowLines lines and about windowBytes bytes each, so a large dump
// does not become one multi-megabyte HTML page.
const (
	windowLines = 400
	windowBytes = 96 << 10
)

// Large raw files are shown sparsely, so that neither evdoc nor Hugo
// holds the whole file: a file over sparseBytes gets viewer pages only
// for its first window and the windows a claim, a value table, a figure
// or a citation links to; the file itself is published whole as a
// download beside them (Hugo copies it as a static file, streaming).
// A line of such a file is shown cut after maxShownLine bytes.
const (
	sparseBytes  = 4 << 20
	MaxShownLine = windowBytes
)

// ViewerFile is one raw file of an evidence set as the viewer shows it:
// its window boundaries, found by one streaming pass over the file
// (New); the lines themselves are read again window by window
// when the pages are written (stageEvidence).
type ViewerFile struct {
	File  string // repository-relative path
	Set   *evidence.Set
	Size  int64 // bytes
	Total int   // lines
	// Starts holds the first line (1-based) of each window, Offsets the
	// byte offset of that line.
	Starts  []int
	Offsets []int64
	// Lexer is the chroma lexer name of the file (lexerFor).
	Lexer string
	// Sparse files (over sparseBytes) show only the windows in shown.
	Sparse bool
	shown  map[int]bool
	// Sum is the SHA-256 of the file's bytes as New read them.
	Sum [sha256.Size]byte
}

// Window returns the index of the window showing line.
func (f *ViewerFile) Window(line int) int {
	i := sort.SearchInts(f.Starts, line+1) - 1
	if i < 0 {
		return 0
	}
	return i
}

// PagePath returns the Hugo page path of window i, such as
// "/evidence/dns-passthrough-tcp/report-md" or ".../report-md-p2".
func (f *ViewerFile) PagePath(i int) string {
	p := "/" + strings.TrimSuffix(hugoconf.EvidencePageDir(f.File), "/")
	if i > 0 {
		p += fmt.Sprintf("-p%d", i+1)
	}
	return p
}

// Show marks window i as one that gets a page.
func (f *ViewerFile) Show(i int) {
	if f.shown == nil {
		f.shown = map[int]bool{}
	}
	f.shown[i] = true
}

// HasPage reports whether window i gets a viewer page: every window of a
// file shown whole; of a sparse file, the first and those linked to.
func (f *ViewerFile) HasPage(i int) bool {
	return !f.Sparse || i == 0 || f.shown[i]
}

// Viewer holds every raw file the evidence pages show, by path.
type Viewer struct {
	root  string
	Files map[string]*ViewerFile
	Order []string
	// Marks holds, by file and line, the byte ranges (within the line)
	// of the raw tokens a claim's popover shows (rawLine): the viewer
	// marks them on the line a claim lands on.
	Marks map[string]map[int][]TokenMark
	// OnMark, when set, is called with each token a claim's data or a
	// set's value marks, each time it is marked, whether Marks held it
	// already or not (a cache of claim data replays them).
	OnMark func(Mark)
	// raw holds the bytes of raw files rawLineOf read (readAt),
	// rawBytes their sum.
	raw      map[string][]byte
	rawBytes int
}

// Mark is a token of a raw line a claim's data or a set's value marks
// (Viewer.Marks).
type Mark struct {
	File  string
	Line  int
	Token TokenMark
}

// AddMark adds m to marks (by file and line, as Viewer.Marks), once.
func AddMark(marks map[string]map[int][]TokenMark, m Mark) {
	if marks[m.File] == nil {
		marks[m.File] = map[int][]TokenMark{}
	}
	if !slices.Contains(marks[m.File][m.Line], m.Token) {
		marks[m.File][m.Line] = append(marks[m.File][m.Line], m.Token)
	}
}

// TokenMark is a byte range of a raw line the viewer marks: a token a
// claim cites (<mark class="ev-token">) or a number no reading took
// (<mark class="ev-unread">, an evidence-number warning).
type TokenMark struct {
	Start, end int
	unread     bool
	// Id is a cited token's anchor, "L12-34" (line, byte column of the
	// token's first byte): a claim's link lands on it (target.Col).
	Id string
}

// UnreadRanges returns, by file and line, the byte ranges of the
// evidence-number warnings of ds (a range holds only numbers no reading
// took: raw.NumericFields inside it are those numbers), unless the
// project turned the rule off.
func UnreadRanges(ds diag.List, rules diag.RuleConfig) map[string]map[int][][2]int {
	if !rules.Enabled(diag.EvidenceNumber) {
		return nil
	}
	out := map[string]map[int][][2]int{}
	for _, d := range ds {
		if d.Rule != diag.EvidenceNumber || d.Pos.Line == 0 || d.End.Line != d.Pos.Line || d.End.Column <= d.Pos.Column {
			continue
		}
		if out[d.Pos.File] == nil {
			out[d.Pos.File] = map[int][][2]int{}
		}
		out[d.Pos.File][d.Pos.Line] = append(out[d.Pos.File][d.Pos.Line], [2]int{d.Pos.Column - 1, d.End.Column - 1})
	}
	return out
}

// UnreadMarks returns the marks of the numbers no reading took on line
// (text), inside the ranges of its evidence-number warnings, leaving out
// any a cited token overlaps.
func UnreadMarks(text string, ranges [][2]int, cited []TokenMark) []TokenMark {
	var out []TokenMark
	for _, f := range raw.NumericFields(text) {
		for _, r := range ranges {
			if f[0] < r[0] || f[1] > r[1] {
				continue
			}
			overlaps := false
			for _, c := range cited {
				overlaps = overlaps || c.Start < f[1] && f[0] < c.end
			}
			if !overlaps {
				out = append(out, TokenMark{Start: f[0], end: f[1], unread: true})
			}
			break
		}
	}
	return out
}

// New finds the windows of every raw file (and manifest) of the
// site's evidence sets, reading each file once in bounded chunks.
func New(ctx context.Context, s *project.Site) (*Viewer, error) {
	v := &Viewer{root: s.Root, Files: map[string]*ViewerFile{}}
	for _, set := range s.Store.Sets {
		files := append([]string{path.Join(set.Dir, manifest.FileName)}, set.Files...)
		for _, f := range files {
			if _, ok := v.Files[f]; ok {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			vf, err := scanViewerFile(ctx, s.Root, f, set)
			if err != nil {
				return nil, err
			}
			v.Files[f] = vf
			v.Order = append(v.Order, f)
		}
	}
	return v, nil
}

// scanViewerFile reads the raw file f in bounded chunks and returns its
// windows (see windowStarts), line count and lexer.
func scanViewerFile(ctx context.Context, root, f string, set *evidence.Set) (*ViewerFile, error) {
	fh, size, err := safefile.Open(root, f, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	vf := &ViewerFile{File: f, Set: set, Size: size, Sparse: size > sparseBytes}
	h := sha256.New()
	lr := NewLineReader(io.TeeReader(fh, h))
	console := false
	var w windower
	for {
		text, n, ok, err := lr.Next(len("$ "))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %v", f, err)
		}
		if !ok {
			break
		}
		if lr.n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if string(text) == "$ " {
			console = true
		}
		if w.add(lr.n, n) {
			vf.Starts = append(vf.Starts, lr.n)
			vf.Offsets = append(vf.Offsets, lr.start)
		}
	}
	vf.Total = lr.n
	vf.Lexer = lexerName(f, console)
	h.Sum(vf.Sum[:0])
	return vf, nil
}

// windower splits lines into viewer windows of at most windowLines
// lines and, unless one line alone is larger, windowBytes bytes.
type windower struct {
	start, size int
}

// add takes line n (1-based) of size bytes and reports whether it
// starts a new window.
func (w *windower) add(n, size int) bool {
	newWindow := w.start == 0 || n-w.start >= windowLines || (w.size > 0 && w.size+size > windowBytes)
	if newWindow {
		w.start, w.size = n, 0
	}
	w.size += size + 1
	return newWindow
}

// windowStarts returns the first line (1-based) of each viewer window of
// lines (see windower).
func windowStarts(lines []string) []int {
	var starts []int
	var w windower
	for i, l := range lines {
		if w.add(i+1, len(l)) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineReader reads a file line by line in bounded memory. Lines are what
// strings.Split(strings.TrimSuffix(content, "\n"), "\n") gives: a final
// newline ends the last line, and an empty file is one empty line.
type lineReader struct {
	r     *bufio.Reader
	n     int   // lines read
	off   int64 // bytes read
	start int64 // offset of the last line read
	eof   bool
	buf   []byte
}

func NewLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next line without its newline, cut to at most max
// bytes, its whole length in bytes, and false after the last line. The
// text is valid until the next call.
func (lr *lineReader) Next(max int) (text []byte, size int, ok bool, err error) {
	if lr.eof {
		return nil, 0, false, nil
	}
	lr.buf = lr.buf[:0]
	lr.start = lr.off
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(chunk))
		body := chunk
		nl := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if nl {
			body = chunk[:len(chunk)-1]
		}
		if room := max - len(lr.buf); room > 0 {
			lr.buf = append(lr.buf, body[:min(room, len(body))]...)
		}
		size += len(body)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			lr.eof = true
			if size == 0 && lr.n > 0 {
				return nil, 0, false, nil // the file ended with a newline
			}
		case err != nil:
			return nil, 0, false, err
		}
		lr.n++
		return lr.buf, size, true, nil
	}
}
