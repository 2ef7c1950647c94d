package nesting

import (
	"strings"
	"testing"
)

func TestTOML(t *testing.T) {
	tests := []struct {
		name, src string
		max       int
		off       int // -1: within the limit
	}{
		{"flat manifest", "id = \"x\"\n[[read]]\nfile = \"a\"\nselect = { a = \"b\" }\n", 3, -1},
		{"deep array", "x = " + strings.Repeat("[", 10) + strings.Repeat("]", 10), 5, 4 + 5},
		{"brackets in strings", `x = "[[[[[[" # [[[[[[` + "\ny = '[[[[[['\nz = \"\"\"\n[[[[[[\n\"\"\"\n", 2, -1},
		{"escaped quote", `x = "\"[[[[[[" `, 2, -1},
		{"deep inline tables", "x = {a={b={c={d=1}}}}", 3, 13},
		{"table headers count once", "[a]\n[[b]]\n[c.d]\n", 2, -1},
	}
	for _, tt := range tests {
		got := TOML([]byte(tt.src), tt.max)
		switch {
		case tt.off < 0 && got != nil:
			t.Errorf("%s: reported at %d", tt.name, got.Offset)
		case tt.off >= 0 && (got == nil || got.Offset != tt.off):
			t.Errorf("%s: got %+v, want offset %d", tt.name, got, tt.off)
		}
	}
	// The case of fault 4: two million levels, answered at once.
	big := "x = " + strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000)
	if got := TOML([]byte(big), MaxDepth); got == nil || got.Offset != 4+MaxDepth {
		t.Errorf("2M levels: %+v", got)
	}
}

func TestJSON(t *testing.T) {
	if got := JSON([]byte(`{"a":[{"b":"[[[[[[[[\"[["}]}`), 3); got != nil {
		t.Errorf("brackets in strings counted: %+v", got)
	}
	if got := JSON([]byte(strings.Repeat("[", 50)), 10); got == nil || got.Offset != 10 {
		t.Errorf("deep array: %+v", got)
	}
}

func TestMarkdown(t *testing.T) {
	var deep strings.Builder
	deep.WriteString("# t\n\n")
	for i := 0; i < 3000; i++ {
		deep.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	got := Markdown([]byte(deep.String()), MaxDepth)
	if got == nil {
		t.Fatal("3000-level list not reported")
	}
	if line := strings.Count(deep.String()[:got.Offset], "\n") + 1; line != 3+MaxDepth {
		t.Errorf("reported on line %d, want %d", line, 3+MaxDepth)
	}
	for name, src := range map[string]string{
		"ordinary page":  "# t\n\n- a\n  - b\n    1. c\n\n> q\n> > r\n\n    code\n",
		"fenced code":    "```\n" + strings.Repeat(" ", 400) + "x\n```\n",
		"quotes in line": strings.Repeat("> ", 50) + "x\n",
	} {
		if got := Markdown([]byte(src), MaxDepth); got != nil {
			t.Errorf("%s: reported at %d", name, got.Offset)
		}
	}
	if got := Markdown([]byte(strings.Repeat("> ", 150)+"x\n"), MaxDepth); got == nil {
		t.Error("150 nested block quotes not reported")
	}
	if got := Markdown([]byte(strings.Repeat("- ", 150)+"x\n"), MaxDepth); got == nil {
		t.Error("150 list markers on one line not reported")
	}
}

func TestYAML(t *testing.T) {
	tests := []struct {
		name, src string
		max       int
		off       int // -1: within the limit
	}{
		{"flat", "title: a\ntags: [a, b]\nparams:\n  x: 1\n", 3, -1},
		{"deep flow", "x: " + strings.Repeat("[", 10), 5, 3 + 4},
		{"deep block", "a:\n b:\n  c:\n   d: 1\n", 3, 15},
		{"sequence entries count", "- - - - x\n", 3, 0},
		{"quoted brackets", "x: \"[[[[[[\" # [[[[[[\ny: '[[[['\n", 2, -1},
		{"block scalar text", "x: |\n      [[[[[[[[\n         deep text\ny: 1\n", 2, -1},
		{"block scalar with indicator", "x: >-\n      [[[[[[[[\ny: 1\n", 2, -1},
		{"dedent closes levels", "a:\n b:\n  c: 1\nd:\n e: 1\n", 3, -1},
	}
	for _, tt := range tests {
		got := YAML([]byte(tt.src), tt.max)
		switch {
		case tt.off < 0 && got != nil:
			t.Errorf("%s: reported at %d", tt.name, got.Offset)
		case tt.off >= 0 && (got == nil || got.Offset != tt.off):
			t.Errorf("%s: got %+v, want offset %d", tt.name, got, tt.off)
		}
	}
}

// FuzzYAML: YAML never panics, and what it reports lies inside the input.
func FuzzYAML(f *testing.F) {
	f.Add([]byte("a:\n - [b, {c: 'd'}]\n x: |\n   text\n"), 3)
	f.Fuzz(func(t *testing.T, src []byte, max int) {
		if d := YAML(src, max%200); d != nil && (d.Offset < 0 || d.Offset > len(src)) {
			t.Fatalf("offset %d outside %d bytes", d.Offset, len(src))
		}
	})
}
