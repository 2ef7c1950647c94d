package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
)

// TestComponentOutOfDate: after evdoc init, check compares themes/evdoc
// with this evdoc's component and reports each kind of difference as a
// site-component error naming what differs and saying to rerun init
// (which clears it); a site whose component Hugo takes from elsewhere
// (themesDir, _vendor/evdoc, not in the theme list) is left alone.
func TestComponentOutOfDate(t *testing.T) {
	stamp := func(dir, version, sum string) {
		t.Helper()
		b := hosttheme.Stamp{Evdoc: version, Sum: sum}.Format()
		if err := os.WriteFile(filepath.Join(dir, "themes/evdoc", hosttheme.ComponentStamp), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shortcode := "layouts/_shortcodes/evdoc/evidence.html"
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   []string // substrings of the finding; nil: no finding
	}{
		{"as written", func(*testing.T, string) {}, nil},
		{"older evdoc", func(t *testing.T, dir string) {
			// What an older init left: a component without the evidence
			// shortcode, stamped with its own sum.
			c := filepath.Join(dir, "themes/evdoc")
			if err := os.Remove(filepath.Join(c, shortcode)); err != nil {
				t.Fatal(err)
			}
			d, err := hosttheme.Digests(os.DirFS(c), ".")
			if err != nil {
				t.Fatal(err)
			}
			stamp(dir, "v0.1.0", hosttheme.Sum(d))
		}, []string{"themes/evdoc: error: themes/evdoc is the component of evdoc v0.1.0, which differs from this evdoc's", shortcode + " is missing", "run `evdoc init` to update it", "[site-component]"}},
		{"no stamp", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "themes/evdoc", hosttheme.ComponentStamp)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "themes/evdoc/layouts/_partials/old.html"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"themes/evdoc differs from this evdoc's component", "layouts/_partials/old.html is not evdoc's", "has no " + hosttheme.ComponentStamp, "run `evdoc init`"}},
		{"changed by hand", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "themes/evdoc", shortcode), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"themes/evdoc was written by this evdoc's component", "changed since", shortcode + " differs", "project's layouts/"}},
		{"themesDir elsewhere", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "themes/evdoc", shortcode)); err != nil {
				t.Fatal(err)
			}
			prependFile(t, filepath.Join(dir, "hugo.toml"), "themesDir = \"other-themes\"\n")
		}, nil},
		{"vendored module", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "themes/evdoc", shortcode)); err != nil {
				t.Fatal(err)
			}
			if err := os.CopyFS(filepath.Join(dir, "_vendor/evdoc"), os.DirFS(filepath.Join(dir, "themes/evdoc"))); err != nil {
				t.Fatal(err)
			}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
				t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "themes/evdoc", hosttheme.ComponentStamp)); err != nil {
				t.Fatalf("init wrote no stamp: %v", err)
			}
			tt.change(t, dir)
			code, out, _ := evdoc("check", "--root", dir)
			if tt.want == nil {
				if code != 0 || strings.Contains(out, "site-component") {
					t.Fatalf("check: exit %d\n%s", code, out)
				}
				return
			}
			if code != 1 {
				t.Errorf("check: exit %d, want 1\n%s", code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("check's output lacks %q:\n%s", w, out)
				}
			}
			if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
				t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
			}
			if code, out, _ := evdoc("check", "--root", dir); code != 0 {
				t.Errorf("check after init: exit %d\n%s", code, out)
			}
		})
	}
}

func prependFile(t *testing.T, p, s string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte(s), b...), 0o644); err != nil {
		t.Fatal(err)
	}
}
