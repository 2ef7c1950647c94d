package hosttheme

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func write(t *testing.T, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDetect: a theme is told by its own hook file whatever its
// directory is called (under themes/, or _vendor/ for a vendored Hugo
// Module), by its name or module path when the directory lacks the
// files, and an unknown theme or evdoc's component is not reported.
func TestDetect(t *testing.T) {
	root := t.TempDir()
	write(t, root, "themes/my-book/layouts/_partials/docs/inject/head.html")
	write(t, root, "themes/papermod-fork/layouts/partials/extend_head.html")
	write(t, root, "themes/hextra/README.md")
	write(t, root, "themes/plain/layouts/baseof.html")
	// Hugo Modules: a vendored import, and one only in the module cache
	write(t, root, "_vendor/example.org/lab/fork/layouts/_partials/custom/head-end.html")
	got := map[string]string{}
	for _, f := range Detect(root, []string{"evdoc", "my-book", "papermod-fork", "hextra", "plain", "example.org/lab/fork", "github.com/google/docsy"}) {
		got[f.Dir] = f.Name
	}
	want := map[string]string{"my-book": "hugo-book", "papermod-fork": "PaperMod", "hextra": "Hextra", "example.org/lab/fork": "Hextra", "github.com/google/docsy": "Docsy"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Detect = %v, want %v", got, want)
	}
}

// TestShadows: the project's own copy of a template (under either name
// of the partials directory) and a theme listed before the component
// replace the component's; a theme listed after it does not.
func TestShadows(t *testing.T) {
	root := t.TempDir()
	write(t, root, "layouts/partials/extend_head.html")
	write(t, root, "themes/early/layouts/_markup/render-link.html")
	write(t, root, "themes/late/layouts/_default/_markup/render-link.html")
	write(t, root, "themes/late/layouts/_partials/extend_head.html")
	for _, tc := range []struct {
		themes []string
		layout string
		want   []string
	}{
		{[]string{"evdoc", "late"}, "_partials/extend_head.html", []string{"layouts/partials/extend_head.html"}},
		{[]string{"early", "evdoc", "late"}, "_markup/render-link.html", []string{"themes/early/layouts/_markup/render-link.html"}},
		{[]string{"evdoc", "early", "late"}, "_markup/render-link.html", nil},
		{[]string{"late", "evdoc"}, "_markup/render-link.html", []string{"themes/late/layouts/_default/_markup/render-link.html"}},
	} {
		if got := Shadows(root, tc.themes, tc.layout); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Shadows(%v, %s) = %v, want %v", tc.themes, tc.layout, got, tc.want)
		}
	}
}

// TestDir: a theme of the theme list is read from _vendor/PATH when the
// project has vendored it, else from themes/NAME.
func TestDir(t *testing.T) {
	root := t.TempDir()
	write(t, root, "_vendor/github.com/lab/modular/layouts/baseof.html")
	write(t, root, "themes/evdoc/theme.toml")
	for theme, want := range map[string]string{
		"github.com/lab/modular": "_vendor/github.com/lab/modular",
		"evdoc":                  "themes/evdoc",
		"github.com/lab/absent":  "themes/github.com/lab/absent",
	} {
		if got := Dir(root, theme); got != want {
			t.Errorf("Dir(%q) = %q, want %q", theme, got, want)
		}
	}
}
