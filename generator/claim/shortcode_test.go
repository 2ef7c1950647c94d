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

// TestShortcodeArgs: each call's arguments as Hugo's lexer reads them,
// named or positional, with the value's bytes (inside its quotes).
func TestShortcodeArgs(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{{< figure src="a.png" caption="실패 15건" width=600 >}}`, `src="a.png" caption="실패 15건" width=600`},
		{"{{% details \"t 1\" open `x y` %}}", "\"t 1\" open \"x y\""},
		{`{{< x a="b\"c" k= >}}`, `a="b\"c"`},
	} {
		src := []byte(c.src)
		calls, d := scanShortcodes(diag.NewLineIndex("p.md", src), src, 0)
		if d != nil || len(calls) != 1 {
			t.Fatalf("%q: calls %v, finding %v", c.src, calls, d)
		}
		var got []string
		for _, a := range calls[0].Args {
			v := c.src[a.Start:a.End]
			if a.Quoted {
				v = `"` + v + `"`
			}
			if a.Name != "" {
				v = a.Name + "=" + v
			}
			got = append(got, v)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q: args %q, want %q", c.src, strings.Join(got, " "), c.want)
		}
	}
}

// FuzzScanShortcodes: no input panics; every call lies inside the
// source, in order, and starts with "{{"; each argument's value lies
// inside its call, after the one before it, within its quotes when
// quoted and after its "name=" (and spaces) when named; the Hugo syntax
// spans are in order, each a call's bytes or a comment's "/*" or "*/".
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
			at := c.Pos.Offset
			for _, a := range c.Args {
				if a.Start < at || a.End < a.Start || a.End > c.End.Offset {
					t.Fatalf("argument %+v of call %+v out of place in %q", a, c, s)
				}
				if a.Quoted && (a.End >= len(s) || s[a.Start-1] != s[a.End] || s[a.End] != '"' && s[a.End] != '`') {
					t.Fatalf("quoted argument %+v not inside its quotes in %q", a, s)
				}
				lead := strings.TrimSuffix(s[:a.Start], `"`)
				lead = strings.TrimSuffix(lead, "`")
				lead = strings.TrimRight(lead, " \t\r\n") // Hugo skips spaces after "=": {{< x a= 1 >}}
				if a.Name != "" && !strings.HasSuffix(lead, a.Name+"=") {
					t.Fatalf("named argument %+v not after its name in %q", a, s)
				}
				at = a.End
			}
			last = c.End.Offset
		}
		if d != nil && (d.Pos.Offset < last || d.Pos.Offset > len(src)) {
			t.Fatalf("finding %v out of place in %q", d, s)
		}
		// Hugo syntax: in order, each span a call or a comment marker
		calls2, spans, _ := scanHugoSyntax(ix, src, 0)
		prev, n := 0, 0
		for _, sp := range spans {
			text := s[sp[0]:min(sp[1], len(s))]
			if sp[0] < prev || sp[1] > len(s) || sp[0] >= sp[1] {
				t.Fatalf("span %v out of place in %q", sp, s)
			}
			switch {
			case text == "/*" || text == "*/":
			case n < len(calls2) && sp[0] == calls2[n].Pos.Offset && sp[1] == calls2[n].End.Offset:
				n++
			default:
				t.Fatalf("span %v (%q) is neither a call nor a comment marker in %q", sp, text, s)
			}
			prev = sp[1]
		}
		if n != len(calls) || len(calls2) != len(calls) {
			t.Fatalf("%d spans of %d calls in %q", n, len(calls), s)
		}
	})
}
