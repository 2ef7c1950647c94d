package diag

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLineIndex(t *testing.T) {
	src := []byte("ab\n한국\n\nz")
	ix := NewLineIndex("f", src)
	tests := []struct {
		off  int
		want string
	}{
		{0, "f:1:1"}, {2, "f:1:3"}, {3, "f:2:1"}, {6, "f:2:4"}, {10, "f:3:1"}, {11, "f:4:1"}, {12, "f:4:2"},
		{-5, "f:1:1"}, {99, "f:4:2"},
	}
	for _, tt := range tests {
		if got := ix.Pos(tt.off).String(); got != tt.want {
			t.Errorf("Pos(%d) = %s, want %s", tt.off, got, tt.want)
		}
	}
	if ix.LineStart(2) != 3 || ix.LineStart(5) != -1 {
		t.Errorf("LineStart = %d, %d", ix.LineStart(2), ix.LineStart(5))
	}
}

func TestPositionAndList(t *testing.T) {
	if (Position{}).String() != "-" || (Position{File: "f"}).String() != "f" || (Position{File: "f", Line: 2}).String() != "f:2" {
		t.Error("Position.String")
	}
	l := List{
		{Pos: Position{File: "b", Line: 1, Column: 1}, Severity: Warning, Message: "w", Rule: "r"},
		{Pos: Position{File: "a", Line: 2, Column: 1}, Severity: Error, Message: "e"},
	}
	l.Sort()
	if l[0].Pos.File != "a" || !l.HasErrors() || l.Err() == nil || (List{}).Err() != nil {
		t.Errorf("sort/HasErrors/Err: %v", l)
	}
	if got := l.Error(); got != "a:2:1: error: e\nb:1:1: warning: w [r]" {
		t.Errorf("Error() = %q", got)
	}
}

func TestRuleConfigApply(t *testing.T) {
	ds := List{
		{Rule: ClaimMismatch, Severity: Error, Message: "a"},
		{Rule: LinkMissingPage, Severity: Warning, Message: "b"},
		{Rule: ClaimUnchecked, Severity: Warning, Message: "c"},
		{Rule: TranslationOrphan, Severity: Error, Message: "d"},
	}
	got := RuleConfig{LinkMissingPage: Error, ClaimUnchecked: Off, TranslationOrphan: Note}.Apply(ds)
	want := []string{"-: error: a [claim-mismatch]", "-: error: b [link-missing-page]", "-: note: d [translation-orphan]"}
	if len(got) != len(want) {
		t.Fatalf("Apply = %v", got)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("Apply[%d] = %s, want %s", i, got[i], want[i])
		}
	}
	if ds[1].Severity != Warning {
		t.Error("Apply modified its input")
	}
	if got := RuleConfig(nil).Apply(ds); len(got) != len(ds) {
		t.Errorf("empty config dropped diagnostics: %v", got)
	}
	// A rule that is off by default reports only when configured.
	off := List{{Rule: ClaimNumberWord, Severity: Warning, Message: "w"}}
	if r, _ := LookupRule(ClaimNumberWord); r.Severity != Off {
		t.Fatalf("claim-number-word default = %s; the test needs a rule that is off by default", r.Severity)
	}
	if got := RuleConfig(nil).Apply(off); len(got) != 0 || RuleConfig(nil).Enabled(ClaimNumberWord) {
		t.Errorf("default-off rule reported: %v", got)
	}
	on := RuleConfig{ClaimNumberWord: Error}
	if got := on.Apply(off); len(got) != 1 || got[0].Severity != Error || !on.Enabled(ClaimNumberWord) {
		t.Errorf("configured rule: %v", got)
	}
	if !RuleConfig(nil).Enabled(ClaimMismatch) || (RuleConfig{ClaimMismatch: Off}).Enabled(ClaimMismatch) {
		t.Error("Enabled disagrees with the settings")
	}
}

// TestLineIndexBOM holds that a UTF-8 byte order mark takes no column: for
// every text, each offset of the text gives the same line and column with
// a BOM before it as without, and LineCol maps each line and column back to
// the same character.
func TestLineIndexBOM(t *testing.T) {
	texts := []string{"", "a", "ab\n한국\n\nz", "\n", "x\r\ny", "[3건](ev:a/b)\n", "µs", "  k=1\n"}
	for _, text := range texts {
		plain := NewLineIndex("f", []byte(text))
		bom := NewLineIndex("f", []byte("\ufeff"+text))
		for off := 0; off <= len(text); off++ {
			p, q := plain.Pos(off), bom.Pos(off+3)
			if p.Line != q.Line || p.Column != q.Column {
				t.Errorf("%q: offset %d is %d:%d, with a BOM %d:%d", text, off, p.Line, p.Column, q.Line, q.Column)
			}
			if r := bom.LineCol(p.Line, p.Column); r.Offset != off+3 {
				t.Errorf("%q: with a BOM, LineCol(%d, %d) is offset %d, want %d", text, p.Line, p.Column, r.Offset, off+3)
			}
		}
		for off := 0; off < 3; off++ {
			if p := bom.Pos(off); p.Line != 1 || p.Column != 1 {
				t.Errorf("%q: the BOM's byte %d is %d:%d, want 1:1", text, off, p.Line, p.Column)
			}
		}
	}
}

// TestPosEqualsLinearScan compares Pos with a position counted byte by
// byte from the start of the text, on random texts (newlines, "\r",
// a byte order mark) at every offset, out-of-range ones included.
func TestPosEqualsLinearScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "\n", "\r\n", "한", "\n\n", " "}
	for round := range 2000 {
		var b strings.Builder
		if round%3 == 0 {
			b.WriteString(utf8BOM)
		}
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		src := []byte(b.String())
		ix := NewLineIndex("f", src)
		for off := -2; off <= len(src)+2; off++ {
			o := min(max(off, 0), len(src))
			line, start := 1, 0
			for i := 0; i < o; i++ {
				if src[i] == '\n' {
					line, start = line+1, i+1
				}
			}
			col := o - start + 1
			if line == 1 && bytes.HasPrefix(src, []byte(utf8BOM)) {
				col = max(o-len(utf8BOM), 0) + 1
			}
			want := Position{File: "f", Line: line, Column: col, Offset: o}
			if got := ix.Pos(off); got != want {
				t.Fatalf("%q: Pos(%d) = %+v, want %+v", src, off, got, want)
			}
		}
	}
}
