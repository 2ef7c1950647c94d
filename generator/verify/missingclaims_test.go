package verify

import (
	"os"
	"path/filepath"
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
