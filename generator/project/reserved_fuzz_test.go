package project

import (
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
	"testing"
)

// FuzzReservedParams: locating evdoc's reserved front matter fields never
// panics, and each finding lies inside the page, at or after the front
// matter's opening.
func FuzzReservedParams(f *testing.F) {
	for _, s := range []string{
		"---\nevdoc_lines:\n  - n: 1\n    html: x\n---\n",
		"+++\n  evdoc_set = { id = \"d3\" }\n+++\n",
		"{\n  \"title\": \"q\",\n  \"evdoc_index\": true, \"a\": [1, {\"evdoc_file\": 2}]\n}\n",
		"{\"evdoc\\u005ffile\": 1, \"evdoc_source\": \"x\"}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := frontmatter.Split(src)
		if err != nil {
			return
		}
		ix := diag.NewLineIndex("p.md", src)
		fields, d := frontmatter.Decode(src, b, ix)
		if d != nil {
			return
		}
		for _, d := range reservedParams(src, b, ix, fields) {
			if d.Pos.Offset < 0 || d.Pos.Offset > len(src) {
				t.Fatalf("finding outside the page: %v", d)
			}
		}
	})
}
