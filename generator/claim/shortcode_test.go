package claim

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestScanShortcodes: the calls Hugo's page lexer reads, and the first
// one it cannot read, with the offset of the finding.
func TestScanShortcodes(t *testing.T) {
	for _, c := range []struct {
		src, calls, err string
	}{
		{`a {{< x >}} b {{% y/z k="v" %}}i{{% /y/z %}}`, "x y/z /y/z", ""},
		{"{{< x a=\"<b>\" `raw\n>}}` p2 />}}", "x", ""},
		{`{{</* shown */>}} {{%/* also */%}}`, "", ""},
		{"{{< x a=\"b\\\"c\" >}}", "x", ""},
		{"t\n{{< x a=1", "", "2:1 not closed"},
		{"{{< /x >}}", "", "1:1 no call opened"},
		{"{{< y >}}{{< /x >}}", "y", "1:10 no call opened"},
		{"{{< x >}}{{< /x >}}{{< /x >}}", "x /x /x", ""}, // Hugo's lexer too
		{"{{< >}}", "", "1:1 no name"},
		{"{{< x a=\"b\nc\" >}}", "", "1:9 quoted string"},
		{"{{< x a=`b >}}", "", "1:9 raw string"},
		{"{{</* x */}}", "", "1:1 comment"},
		{"{{ .Title }} {{ x }}", "", ""},
	} {
		ix := diag.NewLineIndex("p.md", []byte(c.src))
		calls, d := scanShortcodes(ix, []byte(c.src), 0)
		var names []string
		for _, sc := range calls {
			n := sc.Name
			if sc.Closing {
				n = "/" + n
			}
			names = append(names, n)
		}
		if got := strings.Join(names, " "); got != c.calls {
			t.Errorf("%q: calls %q, want %q", c.src, got, c.calls)
		}
		switch {
		case d == nil && c.err != "":
			t.Errorf("%q: no finding, want %q", c.src, c.err)
		case d != nil && c.err == "":
			t.Errorf("%q: finding %v, want none", c.src, d)
		case d != nil:
			at, words, _ := strings.Cut(c.err, " ")
			if got := d.Pos.String(); !strings.HasSuffix(got, ":"+at) || !strings.Contains(d.Message, words) || d.Rule != diag.PageShortcode {
				t.Errorf("%q: finding %v, want at %s saying %q", c.src, d, at, words)
			}
		}
	}
}

// FuzzScanShortcodes: no input panics; every call lies inside the
// source, in order, and starts with "{{".
func FuzzScanShortcodes(f *testing.F) {
	for _, s := range []string{"{{< x a=\"b\" >}}i{{< /x >}}", "{{% y %}}", "{{</* c */>}}", "{{< x a=`b", "{{< /x >}}", "{{< x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		ix := diag.NewLineIndex("p.md", src)
		calls, d := scanShortcodes(ix, src, 0)
		last := 0
		for _, c := range calls {
			if c.Pos.Offset < last || c.End.Offset > len(src) || c.Pos.Offset >= c.End.Offset || !strings.HasPrefix(s[c.Pos.Offset:], "{{") || c.Name == "" {
				t.Fatalf("call %+v out of place in %q", c, s)
			}
			last = c.End.Offset
		}
		if d != nil && (d.Pos.Offset < last || d.Pos.Offset > len(src)) {
			t.Fatalf("finding %v out of place in %q", d, s)
		}
	})
}
