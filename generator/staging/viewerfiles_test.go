package staging

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/viewer"
)

// TestWriteViewerLines: the lines file is the header and each line's
// HTML after a newline, so splitting it on newlines and dropping the
// header gives the lines back (none, one empty line, several); invalid
// UTF-8 is written as U+FFFD per byte, as the JSON front matter the
// lines were once in read it; a line holding a newline is an error.
func TestWriteViewerLines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
		err   string
	}{
		{name: "none", lines: nil, want: "evdoc-lines"},
		{name: "one empty line", lines: []string{""}, want: "evdoc-lines\n"},
		{name: "lines", lines: []string{`<span class="nx">a</span>`, "", "b &amp; c"}, want: "evdoc-lines\n<span class=\"nx\">a</span>\n\nb &amp; c"},
		{name: "invalid UTF-8", lines: []string{"a\xff\xfeb", "\x00"}, want: "evdoc-lines\na\uFFFD\uFFFDb\n\x00"},
		{name: "newline", lines: []string{"a\nb"}, err: "holds a newline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.lines")
			var h string
			b, ok := wroteFile(t, p, tc.want, tc.err, func() (err error) {
				h, err = writeViewerLines(p, tc.lines)
				return err
			})
			if !ok {
				return
			}
			if got := strings.Split(string(b), "\n")[1:]; len(got) != len(tc.lines) {
				t.Errorf("split gives %d lines, want %d", len(got), len(tc.lines))
			}
			if h2, _ := writeViewerLines(p, append(append([]string(nil), tc.lines...), "z")); h2 == h {
				t.Errorf("hash %s unchanged by another line", h)
			}
		})
	}
}

// TestWriteViewerCites: the citations file is the header and NUL-led
// fields n (line), p (page), t (text); a claim's NUL is written as
// U+FFFD (as Hugo's HTML escaping prints it) and invalid UTF-8 as U+FFFD
// per byte; a page path holding NUL is an error.
func TestWriteViewerCites(t *testing.T) {
	line := func(n int, cs ...viewer.Citation) viewer.CitedLine {
		return viewer.CitedLine{N: n, Cites: viewer.GroupCitations(cs)}
	}
	for _, tc := range []struct {
		name string
		ls   []viewer.CitedLine
		want string
		err  string
	}{
		{name: "grouped", ls: []viewer.CitedLine{
			line(5, viewer.Citation{Page: "/docs/a", Text: "51.7%"}, viewer.Citation{Page: "/docs/a", Text: "29回"}, viewer.Citation{Page: "/docs/b", Text: "15건"}),
			line(12, viewer.Citation{Page: "/docs/a", Text: ""}),
		}, want: "evdoc-cites\x00n5\x00p/docs/a\x00t51.7%\x00t29回\x00p/docs/b\x00t15건\x00n12\x00p/docs/a\x00t"},
		{name: "NUL and invalid UTF-8 in a text", ls: []viewer.CitedLine{line(1, viewer.Citation{Page: "/p", Text: "a\x00b\xffc"})},
			want: "evdoc-cites\x00n1\x00p/p\x00ta\uFFFDb\uFFFDc"},
		{name: "NUL in a page", ls: []viewer.CitedLine{line(1, viewer.Citation{Page: "/p\x00q", Text: "1"})}, err: "holds a NUL byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.cites")
			wroteFile(t, p, tc.want, tc.err, func() error {
				_, err := writeViewerCites(p, tc.ls, nil)
				return err
			})
		})
	}
}

// wroteFile runs write, which writes file p. With wantErr set, write
// must fail with an error holding it (ok false); else p must hold want,
// and its bytes are returned with ok true.
func wroteFile(t *testing.T, p, want, wantErr string, write func() error) (b []byte, ok bool) {
	t.Helper()
	err := write()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want one with %q", err, wantErr)
		}
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("wrote %q, want %q", b, want)
	}
	return b, true
}
