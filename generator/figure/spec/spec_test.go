package spec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// repoRoot is the repository, whose figures/ seed FuzzParseSpec.
const repoRoot = "../../.."

var langs = []string{"ko", "ja"}

// FuzzParseSpec holds that no spec file panics the parser and every
// diagnostic lies inside the file.
// specPieces cuts a figure spec into seeds of at most about 256 bytes:
// its top-level keys (lines of up to 120 bytes), then its tables
// ([[panel]], [title], …) packed in order, each piece led by the spec's
// kind line. Go's fuzzer minimizes an input that finds new coverage in a
// number of executions that grows with the square of its length, and the
// reference specs (up to 3.3 KB, about 1 ms an execution) held a
// 20-second run in one minimization after 17 executions; the whole specs
// are read by the package's other tests.
func specPieces(src []byte) [][]byte {
	const limit = 256
	var lead []byte
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("kind")) {
			lead = line
			break
		}
	}
	sections := bytes.SplitAfter(src, []byte("\n["))
	var top []byte
	for _, line := range bytes.SplitAfter(bytes.TrimSuffix(sections[0], []byte("[")), []byte("\n")) {
		if len(line) <= 120 && len(top)+len(line) <= limit {
			top = append(top, line...)
		}
	}
	out := [][]byte{top}
	piece := slices.Clip(lead)
	flush := func() {
		if len(piece) > len(lead) {
			out = append(out, piece)
		}
		piece = slices.Clip(lead)
	}
	for _, sec := range sections[1:] {
		sec = append([]byte("["), bytes.TrimSuffix(sec, []byte("["))...) // "[" starts the next header
		lines := bytes.SplitAfter(sec, []byte("\n"))
		if len(piece)+len(sec) > limit {
			flush()
		}
		if len(lead)+len(sec) <= limit {
			piece = append(piece, sec...)
			continue
		}
		// a long table: its lines in pieces under its header, each line cut to the limit
		piece = append(piece, lines[0]...)
		for _, line := range lines[1:] {
			if len(piece)+len(line) > limit {
				flush()
				piece = append(piece, lines[0]...)
			}
			if len(line) > limit-len(piece) {
				line = line[:limit-len(piece)]
			}
			piece = append(piece, line...)
		}
		flush()
	}
	flush()
	return out
}

func FuzzParseSpec(f *testing.F) {
	add := func(src []byte) {
		for _, p := range specPieces(src) {
			f.Add(p)
		}
	}
	files, _ := filepath.Glob(filepath.Join(repoRoot, "figures", "*.toml"))
	for _, file := range files {
		b, _ := os.ReadFile(file)
		add(b)
	}
	cases, _ := filepath.Glob("../testdata/specs/*.txtar")
	for _, c := range cases {
		if ar, err := txtar.ParseFile(c); err == nil {
			for _, m := range ar.Files {
				if m.Name == "figures/fig.toml" {
					add(m.Data)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, ds := Parse("figures/f.toml", src)
		if s == nil && !ds.HasErrors() {
			t.Fatal("nil spec without an error")
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, d := range ds {
			if d.Pos.Line < 1 || d.Pos.Line > lines || d.Pos.Offset > len(src) {
				t.Fatalf("%s outside the %d-line file", d, lines)
			}
		}
		if s != nil {
			checkTextPositions(t, s)
		}
	})
}

// checkTextPositions holds that every string value of spec s is read as
// go-toml reads it, with offsets inside the string, in order; that each
// text field with a string of its own maps into it (never into another
// field's string of the same text); and that a byte written as it is
// maps to itself.
func checkTextPositions(t *testing.T, s *Spec) {
	for k, sp := range s.stringSpans() {
		val, offs, ok := decodeTOMLString(s.Src[sp.start:sp.end])
		if !ok || val != sp.value {
			t.Fatalf("%q: string %q read as %q (%v); go-toml reads %q", strings.ReplaceAll(k, "\x00", "."), s.Src[sp.start:sp.end], val, ok, sp.value)
		}
		for i := range offs {
			if offs[i] < 0 || offs[i] >= sp.end-sp.start || i > 0 && offs[i] < offs[i-1] {
				t.Fatalf("%q: offsets %v out of order or outside the string", s.Src[sp.start:sp.end], offs)
			}
		}
	}
	starts := map[int]string{}
	for _, lang := range langs {
		for _, f := range s.fields(lang) {
			at := s.textOffset(f)
			sp, ok := s.stringSpans()[pathKey(f.path...)]
			if f.text != "" && ok && sp.value == f.text && at == nil {
				t.Fatalf("%s (%s): %q not mapped into its string", f.key, lang, f.text)
			}
			if at == nil {
				continue
			}
			if other, dup := starts[at(0)]; dup {
				t.Fatalf("%s (%s) and %s map to one offset %d", f.key, lang, other, at(0))
			}
			starts[at(0)] = f.key + " (" + lang + ")"
			for i := 0; i < len(f.text); i++ {
				if at(i+1)-at(i) == 1 && s.Src[at(i)] != f.text[i] {
					t.Fatalf("%s (%s): byte %d of %q maps to %q", f.key, lang, i, f.text, s.Src[at(i)])
				}
			}
		}
	}
}

// TestDecodeTOMLString: each kind of TOML string, with escapes and line
// continuations, reads as its value with each byte's offset.
func TestDecodeTOMLString(t *testing.T) {
	for _, tc := range []struct {
		raw, val string
		offs     []int
		ok       bool
	}{
		{`"ab"`, "ab", []int{1, 2, 3}, true},
		{`"a\"b"`, `a"b`, []int{1, 2, 4, 5}, true},
		{`"\u306F!"`, "は!", []int{1, 1, 1, 7, 8}, true},
		{`"\U0001F9EA"`, "\U0001F9EA", []int{1, 1, 1, 1, 11}, true},
		{`"a\x41"`, "aA", []int{1, 2, 6}, true},
		{`"\n\t\\"`, "\n\t\\", []int{1, 3, 5, 7}, true},
		{`'a\n'`, `a\n`, []int{1, 2, 3, 4}, true},
		{"'''\nab'''", "ab", []int{4, 5, 6}, true},
		{"\"\"\"\na\\\n  b\"\"\"", "ab", []int{4, 9, 10}, true},
		{"\"\"\"\r\na\"\"\"", "a", []int{5, 6}, true},
		{`"\q"`, "", nil, false},
		{`"\u12"`, "", nil, false},
		{`"\uD800"`, "", nil, false},
		{`x`, "", nil, false},
	} {
		val, offs, ok := decodeTOMLString([]byte(tc.raw))
		if ok != tc.ok || val != tc.val || !slices.Equal(offs, tc.offs) {
			t.Errorf("%q: %q %v %v; want %q %v %v", tc.raw, val, offs, ok, tc.val, tc.offs, tc.ok)
		}
	}
}

// TestLimits: a spec over a limit of limits.go is a figure-spec error
// naming the limit, found before anything is drawn (the reliability
// probe 50-figure-huge-spec drew 4,000 rate groups as a 5.7 GB PNG).
func TestLimits(t *testing.T) {
	rate := func(panels, groups int) string {
		var b strings.Builder
		b.WriteString("kind = \"rate\"\ncolumns = 1\n")
		for i := 0; i < panels; i++ {
			fmt.Fprintf(&b, "[[panel]]\ntitle = { ko = \"p%d\", ja = \"p%d\" }\n", i, i)
			for g := 0; g < groups; g++ {
				fmt.Fprintf(&b, "  [[panel.group]]\n  label = { ko = \"g\", ja = \"g\" }\n  ref = \"lab/r.a.rate\"\n")
			}
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, src, want string
	}{
		{"panels", rate(2000, 1), "limit MaxPanels"},
		{"groups", rate(1, 2000), "limit MaxSeries"},
		{"height", rate(MaxPanels, MaxSeries), "limit MaxHeight"},
		{"points", "kind = \"spectrum\"\nunit = \"ms\"\n[[panel]]\n  [[panel.series]]\n  id = \"a\"\n  ref = \"x/y.{p}\"\n  percentiles = [" + strings.Repeat(`"p50", `, MaxPoints) + "\"p50\"]\n", "limit MaxPoints"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ds := Parse("figures/big.toml", []byte(tc.src))
			if s != nil || len(ds) == 0 || ds[0].Rule != diag.FigureSpec || !strings.Contains(ds[0].Message, tc.want) {
				t.Fatalf("got %v; want a figure-spec error naming %s", ds, tc.want)
			}
		})
	}
	// Within the limits: the reference figures and these parse.
	if _, ds := Parse("figures/ok.toml", []byte(rate(MaxPanels, 2))); ds.HasErrors() {
		t.Errorf("%d panels of 2 groups: %v", MaxPanels, ds)
	}
}
