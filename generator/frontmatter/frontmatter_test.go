package frontmatter

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name, src string
		format    Format
		text      string // front matter text
		body      string // what follows it
		unclosed  bool
	}{
		{"yaml", "---\ntitle: a\n---\nbody\n", YAML, "title: a\n", "body\n", false},
		{"toml", "+++\ntitle = \"a\"\n+++\nbody\n", TOML, "title = \"a\"\n", "body\n", false},
		{"json", "{\n  \"title\": \"a}\"\n}\nbody\n", JSON, "{\n  \"title\": \"a}\"\n}", "body\n", false},
		{"json one line with nested object", `{"title": "j", "p": {"a": "\"}"}}` + "\nbody", JSON, `{"title": "j", "p": {"a": "\"}"}}`, "body", false},
		{"crlf", "+++\r\ntitle = \"a\"\r\n+++\r\nbody\r\n", TOML, "title = \"a\"\r\n", "body\r\n", false},
		{"leading blank lines and BOM", "\ufeff\n\n---\nt: 1\n---  \nbody", YAML, "t: 1\n", "body", false},
		{"empty yaml", "---\n---\nbody", YAML, "", "body", false},
		{"no front matter", "# Title\n\nbody\n", "", "", "# Title\n\nbody\n", false},

		{"thematic break text", "----\nx\n", "", "", "----\nx\n", false},
		{"list item", "\n- item\n", YAML, "", "- item\n", false},
		{"plus first", "+1 point\n", TOML, "", "+1 point\n", false},
		{"unclosed toml", "+++\ntitle = \"a\"\nbody\n", TOML, "", "", true},
		{"unclosed json", "{\"title\": \"a\"\nbody\n", JSON, "", "", true},
		{"shortcode first is json as in Hugo", "{{< x >}}\nbody\n", JSON, "{{< x >}}", "body\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			b, err := Split(src)
			var ue *UnclosedError
			if tt.name == "list item" || tt.name == "plus first" {
				var de *DelimiterError
				if !errors.As(err, &de) || de.Format != tt.format || de.Open != len(tt.src)-len(tt.body) {
					t.Fatalf("Split = %+v, %v; want a %s delimiter error", b, err, tt.format)
				}
				return
			}
			if tt.unclosed {
				if !errors.As(err, &ue) || ue.Format != tt.format {
					t.Fatalf("Split = %+v, %v; want an unclosed %s error", b, err, tt.format)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Format != tt.format || string(b.Text(src)) != tt.text || string(src[b.BodyStart:]) != tt.body {
				t.Errorf("Split = %s %q body %q; want %s %q body %q", b.Format, b.Text(src), src[b.BodyStart:], tt.format, tt.text, tt.body)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // fmt of title and translationKey, or the error
	}{
		{"yaml", "---\ntitle: 제목 3\ntranslationKey: k\n---\n", "제목 3|k"},
		{"toml", "+++\ntitle = \"제목 3\"\ntranslationKey = 'k'\ndate = 2026-07-09\n[params]\ntitle = \"no\"\n+++\n", "제목 3|k"},
		{"json", "{\"title\": \"제목 3\", \"translationKey\": \"k\", \"weight\": 2}\n", "제목 3|k"},
		{"yaml unclosed flow sequence at its bracket", "\n---\ntitle: a\nb: [\n---\n", `p.md:4:4: error: invalid YAML front matter: the flow sequence "[" opened here is never closed; expected "]" [page-front-matter]`},
		{"yaml unclosed quote at the quote", "---\ntitle: \"깨짐\ntranslationKey: br\n---\n", `p.md:2:8: error: invalid YAML front matter: the double-quoted string opened here is never closed; expected a closing " [page-front-matter]`},
		{"yaml unclosed single quote", "---\ntitle: ok\nsummary: 'it''s\n---\n", `p.md:3:10: error: invalid YAML front matter: the single-quoted string opened here is never closed; expected a closing ' [page-front-matter]`},
		{"yaml unclosed flow on line 3", "---\ntitle: a\ntags: [x, y\n---\n", `p.md:3:7: error: invalid YAML front matter: the flow sequence "[" opened here is never closed; expected "]" [page-front-matter]`},
		{"yaml unclosed flow mapping", "---\ntitle: a\nparams: {a: 1, b: [1, 2]\n---\n", `p.md:3:9: error: invalid YAML front matter: the flow mapping "{" opened here is never closed; expected "}" [page-front-matter]`},
		{"yaml quotes inside a plain scalar are text", "---\ntitle: it's \"fine\"\ntranslationKey: k\n---\n", `it's "fine"|k`},
		{"yaml comment quote ignored", "---\ntitle: a # don't\ntranslationKey: k\n---\n", `a|k`},
		{"yaml duplicate key at the key, one line", "---\ntitle: a\ntranslationKey: k\n  \ntitle: b\n---\n", `p.md:5:1: error: invalid YAML front matter: mapping key "title" is already defined at line 2 [page-front-matter]`},
		{"yaml nested duplicate key", "---\ntitle: a\nparams:\n  한: 1\n  x: 2\n  한: 3\n---\n", `p.md:6:3: error: invalid YAML front matter: mapping key "한" is already defined at line 4 [page-front-matter]`},
		{"yaml scanner error at its line", "---\ntitle: a\nb: @x\n---\n", `p.md:3:1: error: invalid YAML front matter: found character that cannot start any token [page-front-matter]`},
		{"yaml parser error at its line", "---\ntitle: a\n  b: c\n---\n", `p.md:3:3: error: invalid YAML front matter: mapping values are not allowed in this context [page-front-matter]`},
		{"yaml type error one line", "---\n? [a]\n: 1\n---\n", `p.md:2:1: error: invalid YAML front matter: cannot unmarshal !!seq into string [page-front-matter]`},
		{"yaml parser problem names its block's line", "---\ntitle: a\nweight: 2\n- b\n---\n", `p.md:4:1: error: invalid YAML front matter: did not find expected key [page-front-matter]`},
		{"yaml parser problem in a nested sequence", "---\ntitle: a\ntags:\n  - a\n  - b\n  c: 1\n---\n", `p.md:6:3: error: invalid YAML front matter: did not find expected '-' indicator [page-front-matter]`},
		{"yaml parser problem in a nested block", "---\ntitle: a\nparams:\n  x: 1\n  - b\n---\n", `p.md:5:3: error: invalid YAML front matter: did not find expected key [page-front-matter]`},
		{"toml error at its file line and column", "+++\ntitle = \"a\"\nweight = = 2\n+++\n", `p.md:3:10: error: invalid TOML front matter: expected value but found '=' instead [page-front-matter]`},
		{"toml duplicate key", "+++\ntitle = \"a\"\ntitle = \"b\"\n+++\n", `p.md:3:12: error: invalid TOML front matter: Key 'title' has already been defined. [page-front-matter]`},
		{"json error at its offset", "{\n  \"title\": \"a\",\n  \"n\": tru\n}\n", `p.md:3:11: error: invalid JSON front matter: invalid character '\n' in literal true (expecting 'e') [page-front-matter]`},
		{"toml nested too deep at the opening past the limit", "+++\ntitle = \"deep\"\nx = " + strings.Repeat("[", 2_000_000) + "1" + strings.Repeat("]", 2_000_000) + "\n+++\n", `p.md:3:105: error: TOML front matter nests deeper than 100 levels; expected a flatter structure [page-limit]`},
		{"toml nested 100 levels is read", "+++\ntitle = \"t\"\ntranslationKey = \"k\"\nx = " + strings.Repeat("[", 99) + "1" + strings.Repeat("]", 99) + "\n+++\n", "t|k"},
		{"yaml flow nested too deep", "---\ntitle: t\nx: " + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "\n---\n", `p.md:3:103: error: YAML front matter nests deeper than 100 levels; expected a flatter structure [page-limit]`},
		{"yaml block nested too deep", "---\ntitle: t\n" + deepYAML(150) + "---\n", `p.md:103:101: error: YAML front matter nests deeper than 100 levels; expected a flatter structure [page-limit]`},
		{"yaml block scalar lines are text", "---\ntitle: t\ntranslationKey: k\nx: |\n" + strings.Repeat("          [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n", 3) + "---\n", "t|k"},
		{"json nested too deep", "{\"title\": " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "}\n", `p.md:1:110: error: JSON front matter nests deeper than 100 levels; expected a flatter structure [page-limit]`},
		{"shortcode first", "{{< x >}}\nbody\n", `p.md:1:2: error: invalid JSON front matter: invalid character '{' looking for beginning of object key string (Hugo reads a page whose first character is "{" as JSON front matter: a page cannot start with a shortcode call; put front matter before it) [page-front-matter]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			b, err := Split(src)
			if err != nil {
				t.Fatal(err)
			}
			fields, d := Decode(src, b, diag.NewLineIndex("p.md", src))
			got := ""
			if d != nil {
				got = d.String()
			} else {
				title, _ := String(fields, "title")
				key, _ := String(fields, "translationKey")
				got = fmt.Sprintf("%s|%s", title, key)
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // key=value text
	}{
		{"yaml block value", "---\ntitle: >\n  40 ms\n  then\nweight: 3\nsummary: 5 s\n---\n", []string{"title= >\n  40 ms\n  then", "summary= 5 s"}},
		{"toml top level only", "+++\ntitle = \"40 ms\"\nweight = 3\ndescription = \"\"\"\n5 s\n\"\"\"\n[params]\nsummary = \"7\"\n+++\n", []string{`title= "40 ms"`, "description= \"\"\"\n5 s\n\"\"\""}},
		{"json strings only", `{"weight": 3, "title": "40 ms", "params": {"summary": "7"}, "summary": "5 s"}` + "\n", []string{`title="40 ms"`, `summary="5 s"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			b, err := Split(src)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range Fields(src, b, []string{"title", "summary", "description"}) {
				got = append(got, f.Key+"="+string(src[f.Start:f.End]))
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Errorf("Fields = %q\nwant     %q", got, tt.want)
			}
		})
	}
}

func FuzzSplitDecode(f *testing.F) {
	for _, s := range []string{"---\nt: 1\n---\nx", "+++\nt = 1\n+++\n", "{\"t\": 1}\n", "{{< x >}}", "\ufeff---\r\n---\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := Split(src)
		if err != nil {
			return
		}
		if b.BodyStart < 0 || b.BodyStart > len(src) || b.Start > b.End || b.End > b.BodyStart && b.Format != "" {
			t.Fatalf("bad block %+v for %q", b, src)
		}
		if _, d := Decode(src, b, diag.NewLineIndex("p.md", src)); d != nil {
			// One line per finding (a "\n" becomes %0A in GitHub
			// annotations), inside the front matter.
			if strings.Contains(d.Message, "\n") || b.Format == YAML && (d.Pos.Offset < b.Open || d.Pos.Offset > b.End) {
				t.Fatalf("finding %q at %d outside [%d, %d] or on several lines for %q", d.Message, d.Pos.Offset, b.Open, b.End, src)
			}
		}
		for _, fl := range Fields(src, b, []string{"title"}) {
			if fl.Start > fl.End || fl.End > len(src) {
				t.Fatalf("bad field %+v", fl)
			}
		}
	})
}

// TestDecodeJSONNumbers: JSON numbers decode as Hugo decodes them
// (float64), so a page generated from the fields (a translation
// fallback) writes weight: 2, not the string "2".
func TestDecodeJSONNumbers(t *testing.T) {
	src := []byte("{\"weight\": 2}\n")
	b, _ := Split(src)
	fields, d := Decode(src, b, diag.NewLineIndex("p.md", src))
	if d != nil {
		t.Fatal(d)
	}
	if w, ok := fields["weight"].(float64); !ok || w != 2 {
		t.Errorf("weight = %#v, want float64 2", fields["weight"])
	}
}

// deepYAML is a YAML mapping nested n levels by indentation.
func deepYAML(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}
