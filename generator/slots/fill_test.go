package slots

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testTable returns a table of one page (index 0, language ko, content
// path "docs/a+b.md") with three slots of key "ev:s/x" (roles plain,
// first, repeat) and a filler with claim.html-like formats of that key.
func testTable(t testing.TB) (*Table, *Filler, []string) {
	t.Helper()
	tb := NewTable(2)
	p := tb.Page(0, "ko", "docs/a+b.md")
	var ids []string
	for i, r := range []Role{RolePlain, RoleFirst, RoleRepeat} {
		ids = append(ids, p.Next())
		p.Add(3+i, 5, "ev:s/x", r)
	}
	fs := [3]string{
		`<span class="ev"><a href="/e/#L1" data-ev-at="ko:%[1]s:%[2]d:%[3]d" data-ev="ev:s/x">%[4]s</a><span class="ev-pop" id="ev-ab-%[5]s-%[2]d-%[3]d"></span></span>`,
		`<span class="ev"><a href="/e/#L1" data-ev-at="ko:%[1]s:%[2]d:%[3]d" data-ev="ev:s/x">%[4]s</a><span class="ev-pop" id="ev-cd-%[5]s"></span></span>`,
		`<span class="ev"><a href="/e/#L1?q=100%%" data-ev-at="ko:%[1]s:%[2]d:%[3]d" data-ev="ev:s/x">%[4]s</a><span class="ev-pop" id="ev-ab-%[5]s-%[2]d-%[3]d"></span></span>`,
	}
	f := &Filler{t: tb, formats: map[string]map[string]*[3]format{"ko": {"ev:s/x": {compile(fs[0]), compile(fs[1]), compile(fs[2])}}}}
	return tb, f, ids
}

// want returns what the render hook's printf writes for slot i of
// testTable with link text text.
func want(t testing.TB, f *Filler, i int, text string) string {
	fs := f.formats["ko"]["ev:s/x"][i]
	return fmt.Sprintf(fs.src, "docs/a&#43;b.md", 3+i, 5, text, "689633")
}

func TestFill(t *testing.T) {
	_, f, ids := testTable(t)
	if got := f.t.pages[0].id; got != "689633" {
		// md5("docs/a+b.md")[:6], claim-page.html's
		t.Fatalf("page id %s", got)
	}
	raw := func(i int, text string) string { return `<evdoc-c d="` + ids[i] + `">` + text + `</evdoc-c>` }
	for _, tc := range []struct {
		name, in, want string
	}{
		{"none", "<p>no claims</p>", "<p>no claims</p>"},
		{"raw", "<p>a " + raw(0, "4건") + " b " + raw(1, "<em>5</em>") + raw(2, "6") + "</p>",
			"<p>a " + want(t, f, 0, "4건") + " b " + want(t, f, 1, "<em>5</em>") + want(t, f, 2, "6") + "</p>"},
		{"padded", `<evdoc-c d="` + ids[0] + `-----">4</evdoc-c>`, want(t, f, 0, "4")},
		{"minified", `<p>a <evdoc-c d=` + ids[1] + `>4</evdoc-c>`, "<p>a " + want(t, f, 1, "4")},
		{"escaped", html.EscapeString("<p>" + raw(0, "4 & <em>5</em>") + "</p>"), html.EscapeString("<p>" + want(t, f, 0, "4 & <em>5</em>") + "</p>")},
		{"prose", "<code>&lt;evdoc-c d=&quot;ev:#ID&quot;&gt;</code> and <span class=evdoc-claim>", "<code>&lt;evdoc-c d=&quot;ev:#ID&quot;&gt;</code> and <span class=evdoc-claim>"},
		{"stray escaped closing", "&lt;/evdoc-c&gt;", "&lt;/evdoc-c&gt;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, err := f.Fill("x.html", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want || changed != (tc.in != tc.want) {
				t.Errorf("got %v\n%s\nwant\n%s", changed, got, tc.want)
			}
		})
	}
}

// TestFillEscapedLikeHugo compares the fill of an escaped placeholder
// with the escaped markup, for each escaper Hugo and themes apply to
// content: transform.XMLEscape (xml.EscapeText), html and htmlEscape
// (html.EscapeString), jsonify (encoding/json).
func TestFillEscapedLikeHugo(t *testing.T) {
	_, f, ids := testTable(t)
	text := `4건 & <code>"x"</code> 'y'`
	placeholder := `<p>` + `<evdoc-c d="` + ids[2] + `">` + text + `</evdoc-c></p>`
	markup := `<p>` + want(t, f, 2, text) + `</p>`
	xmlEscape := func(s string) string {
		var b bytes.Buffer
		if err := xml.EscapeText(&b, []byte(s)); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	jsonify := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	for name, esc := range map[string]func(string) string{"xml": xmlEscape, "html": html.EscapeString, "json": jsonify} {
		got, changed, err := f.Fill("index.xml", []byte(esc(placeholder)))
		if err != nil || !changed {
			t.Fatalf("%s: %v %v", name, changed, err)
		}
		if string(got) != esc(markup) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, esc(markup))
		}
	}
}

func TestFillErrors(t *testing.T) {
	_, f, ids := testTable(t)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"unknown id", "x\n <evdoc-c d=\"ev:#0-9\">4</evdoc-c>", "x.html:2:3: the claim placeholder ev:#0-9 names no claim"},
		{"unknown page", `<evdoc-c d="ev:#1-0">4</evdoc-c>`, "names no claim"},
		{"not canonical", `<evdoc-c d="ev:#00-0">4</evdoc-c>`, "names no claim"},
		{"cut", `<p><evdoc-c d="` + ids[0] + `">4…</p>`, "has no closing"},
		{"cut escaped", `&lt;evdoc-c d=&#34;` + ids[0] + `&#34;&gt;4…`, "has no closing"},
		{"stray closing", `<evdoc-c d="` + ids[0] + `">4</evdoc-c> 5</evdoc-c>`, "not a whole claim placeholder"},
		{"nested", `<evdoc-c d="` + ids[0] + `">4<evdoc-c d="` + ids[1] + `">5</evdoc-c></evdoc-c>`, "has no closing"},
		{"malformed", `<evdoc-c d="` + ids[0] + `>4</evdoc-c>`, "cut or malformed"},
		{"other attribute", `<evdoc-c x="1">4</evdoc-c>`, "not a whole claim placeholder"},
		{"opening cut", `<p><evdoc-c d="ev:#`, "cut or malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := f.Fill("x.html", []byte(tc.in))
			var pe *PosError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &pe) {
				t.Errorf("error %v, want one holding %q", err, tc.want)
			}
		})
	}
}

// TestCompileLikeSprintf compares compiled formats with fmt.Sprintf,
// which the render hook's printf is.
func TestCompileLikeSprintf(t *testing.T) {
	p := &Page{where: "a&#43;b.md", id: "abc123"}
	s := &slot{line: 12, col: 7}
	for _, f := range []string{
		"", "plain", "100%%", "%[1]s:%[2]d:%[3]d %[4]s %[5]s", "%[4]s%[4]s", "%[2]s", "%s", "%[6]s", "%d %[1]s", "%", "%[1", "%[1]x", "%%[1]s",
	} {
		c := compile(f)
		got := string(c.appendTo(nil, p, s, []byte("T")))
		if w := fmt.Sprintf(f, p.where, 12, 7, "T", p.id); got != w {
			t.Errorf("%q: %q, want %q (compiled: %v)", f, got, w, c.parts != nil)
		}
	}
}

func TestCountsText(t *testing.T) {
	for f, want := range map[string]bool{
		`<a data-ev="x">%[4]s</a>`:             true,
		`<a title="x">%[4]s</a>`:               false,
		`<a title="x"> %[4]s</a>`:              true,
		`%[4]s`:                                true,
		`<span class="ev"><a>%[4]s</a></span>`: false, // "class=\"ev\"><a>4" looks like an attribute
	} {
		if got := compile(f).countsText(); got != want {
			t.Errorf("%q: %v", f, got)
		}
	}
}

func TestLoad(t *testing.T) {
	tb, _, ids := testTable(t)
	dir := t.TempDir()
	fs := `"<a data-ev-at=\"%[1]s:%[2]d:%[3]d\">%[4]s</a>"`
	formats := `{"evdoc-slots":1,"lang":"ko","formats":{"ev:s/x":[` + fs + `,` + fs + `,` + fs + `]}}`
	for _, p := range []string{"evidence/evdoc-slots.json", "other/evdoc-slots.json"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		body := formats
		if strings.HasPrefix(p, "other") {
			body = `{"a site's own file": 1}`
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page := filepath.Join(dir, "index.html")
	if err := os.WriteFile(page, []byte(`<p><evdoc-c d="`+ids[0]+`">4</evdoc-c></p>`), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := tb.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "evidence", FormatsFile)); err == nil {
		t.Error("the formats file is left in the output")
	}
	if _, err := os.Stat(filepath.Join(dir, "other", FormatsFile)); err != nil {
		t.Error("a site's own file of that name was removed")
	}
	if err := f.FillDir(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(page)
	if string(b) != `<p><a data-ev-at="docs/a&#43;b.md:3:5">4</a></p>` {
		t.Errorf("filled: %s", b)
	}
}

// TestFillFingerprinted: a file whose name holds the digest of its bytes
// (resources.Fingerprint) is refused when it holds placeholders, for
// each digest Hugo's fingerprint writes; a name with a hex part that is
// not the file's digest is filled.
func TestFillFingerprinted(t *testing.T) {
	_, f, ids := testTable(t)
	in := []byte(`{"c":"<evdoc-c d="` + ids[0] + `">4</evdoc-c>"}`)
	sums := map[string]string{
		"md5":    fmt.Sprintf("%x", md5.Sum(in)),
		"sha256": fmt.Sprintf("%x", sha256.Sum256(in)),
		"sha384": fmt.Sprintf("%x", sha512.Sum384(in)),
		"sha512": fmt.Sprintf("%x", sha512.Sum512(in)),
	}
	for name, sum := range sums {
		_, _, err := f.Fill("js/search."+sum+".json", in)
		var pe *PosError
		if err == nil || !strings.Contains(err.Error(), name+" digest") || !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want one naming the %s digest", name, err, name)
		}
	}
	other := strings.Repeat("ab", 32)
	out, changed, err := f.Fill("js/search."+other+".json", in)
	if err != nil || !changed || bytes.Contains(out, []byte("evdoc-c")) {
		t.Errorf("a hex part that is not the digest: %v, changed %v, %q", err, changed, out)
	}
	// no placeholder: the file is kept whatever its name
	plain := []byte(`{"c":"4"}`)
	if _, changed, err := f.Fill(fmt.Sprintf("s.%x.json", sha256.Sum256(plain)), plain); err != nil || changed {
		t.Errorf("a fingerprinted file without placeholders: %v, changed %v", err, changed)
	}
}
