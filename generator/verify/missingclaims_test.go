package verify

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// TestShortcodeCause: what evdoc says about a shortcode whose inner
// content holds a claim the built page lacks, by what its template (the
// one Hugo takes: the project's before the theme's) does with .Inner.
func TestShortcodeCause(t *testing.T) {
	tests := []struct {
		name, file, tpl string
		want            []string
	}{
		{"markdownify in a theme", "themes/t/layouts/_shortcodes/callout.html", `<div>{{ .Inner | markdownify }}</div>`,
			[]string{"themes/t/layouts/_shortcodes/callout.html renders its inner content with markdownify", "home page's .RenderString", "Copy the template to layouts/_shortcodes/callout.html and in the copy render the inner content with .Page.RenderString", "{{% callout %}} does not help"}},
		{"markdownify in the project", "layouts/shortcodes/callout.html", `{{ $c := .InnerDeindent | markdownify }}<div>{{ $c }}</div>`,
			[]string{"layouts/shortcodes/callout.html renders its inner content with markdownify", "In it, render the inner content with .Page.RenderString"}},
		{"home's RenderString", "themes/t/layouts/_shortcodes/callout.html", `{{ .Inner | site.Home.RenderString }}`,
			[]string{"the .RenderString of another page than .Page", "Copy the template"}},
		{"no inner", "themes/t/layouts/_shortcodes/callout.html", `<div>note</div>`,
			[]string{"does not show its inner content (.Inner)"}},
		{"page RenderString", "themes/t/layouts/_shortcodes/callout.html", `{{ .Inner | .Page.RenderString }}`,
			[]string{"whose template is themes/t/layouts/_shortcodes/callout.html"}},
		{"no template", "", "", []string{"whose template evdoc did not find"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.file != "" {
				p := filepath.Join(root, filepath.FromSlash(tt.file))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(tt.tpl), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := &project.Site{Root: root, Config: &hugoconf.Config{Themes: []string{"evdoc", "t"}}}
			got := shortcodeCause(s, "callout")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("shortcodeCause = %q; want it to hold %q", got, w)
				}
			}
		})
	}
}

// TestEnclosingShortcode: a claim's innermost enclosing shortcode, by
// its call's form; a call without a closing tag encloses nothing.
func TestEnclosingShortcode(t *testing.T) {
	src := "{{< tabs >}}\n{{% tab %}}\nA [1](ev:a/b)\n{{% /tab %}}\n{{< figure src=x >}}\n{{< /tabs >}}\nB [2](ev:a/b)\n"
	p, errs := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	if len(p.Claims) != 2 {
		t.Fatalf("claims %v, findings %v", p.Claims, errs)
	}
	pairs := shortcodePairs([]byte(src), p.Shortcodes)
	if sc, ok := enclosingShortcode(pairs, p.Claims[0].Pos.Offset); !ok || sc.name != "tab" || sc.delim != "%" || sc.line != 2 {
		t.Errorf("first claim: %+v, %v; want {{%% tab %%}} at line 2", sc, ok)
	}
	if sc, ok := enclosingShortcode(pairs, p.Claims[1].Pos.Offset); ok {
		t.Errorf("second claim: %+v; want none", sc)
	}
}

// TestRenderedAt: a claim counts as rendered at its own LINE:COL, or
// right of it on its line where marks written before it in the staged
// page moved Hugo's column; each written key counts for one claim, a
// claim at its own position first, so the claim left out is the one
// named.
func TestRenderedAt(t *testing.T) {
	src := "[1](ev:a/b) [2](ev:a/b) [3](ev:a/b)\n[4](ev:a/c)\n"
	p, _ := claim.Parse(claim.NewMarkdown(), "p.md", []byte(src))
	// the third claim is missing; the marks of the first ("<", " +",
	// ">") moved the second 4 bytes right
	got := map[string]bool{"1:2|ev:a/b": true, "1:18|ev:a/b": true, "2:2|ev:a/c": true}
	shown := renderedAt(p.Claims, got)
	if want := []bool{true, true, false, true}; !reflect.DeepEqual(shown, want) {
		t.Errorf("renderedAt = %v, want %v", shown, want)
	}
	// nothing moved: the missing claim is named exactly
	got = map[string]bool{"1:2|ev:a/b": true, "1:26|ev:a/b": true}
	if want := []bool{true, false, true, false}; !reflect.DeepEqual(renderedAt(p.Claims, got), want) {
		t.Errorf("renderedAt = %v, want %v", renderedAt(p.Claims, got), want)
	}
}
