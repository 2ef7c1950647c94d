package hosttheme

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostHook(t *testing.T) {
	root := t.TempDir()
	write(t, root, "themes/early/layouts/_markup/render-link.html")
	write(t, root, "themes/old/layouts/_default/_markup/render-link.html")
	write(t, root, "themes/new/layouts/_markup/render-link.html")
	for _, tc := range []struct {
		themes []string
		want   string
	}{
		// a theme before the component is not the host's hook evdoc's hides
		{[]string{"early", "evdoc", "plain", "old", "new"}, "themes/old/layouts/_default/_markup/render-link.html"},
		{[]string{"evdoc", "new", "old"}, "themes/new/layouts/_markup/render-link.html"},
		{[]string{"evdoc", "plain"}, ""},
		// before the site lists evdoc (init): the whole list
		{[]string{"early"}, "themes/early/layouts/_markup/render-link.html"},
	} {
		if got := HostHook(root, tc.themes, "render-link.html"); got != tc.want {
			t.Errorf("HostHook(%q) = %q, want %q", tc.themes, got, tc.want)
		}
	}
}

func TestSyncHostHooks(t *testing.T) {
	root := t.TempDir()
	hook := filepath.Join(root, "themes", "host", "layouts", "_markup", "render-link.html")
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte("<a href=\"{{ .Destination }}\">{{ .Text }}</a>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	themes := []string{Component, "host"}
	dst := filepath.Join(root, "layouts", filepath.FromSlash(HostLinkHook))
	f, changed, err := SyncHostHooks(root, root, themes)
	if err != nil || !changed || f != "layouts/"+HostLinkHook {
		t.Fatalf("first sync: %q %v %v", f, changed, err)
	}
	b, _ := os.ReadFile(dst)
	// the copy renders what the hook renders: the hook's bytes after a
	// comment that renders nothing and trims nothing
	if !strings.HasPrefix(string(b), CopyMark) || !strings.HasSuffix(string(b), "*/}}<a href=\"{{ .Destination }}\">{{ .Text }}</a>\n") {
		t.Errorf("copy:\n%s", b)
	}
	if _, changed, _ := SyncHostHooks(root, root, themes); changed {
		t.Error("a second sync changed the copy")
	}
	// the theme's hook changes: the copy follows
	if err := os.WriteFile(hook, []byte("<a>{{ .Text }}</a>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, changed, _ := SyncHostHooks(root, root, themes); !changed {
		t.Error("a changed hook was not copied again")
	}
	// the theme drops its hook: the copy goes
	if err := os.Remove(hook); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := SyncHostHooks(root, root, themes); !changed || err != nil {
		t.Errorf("dropped hook: changed %v, %v", changed, err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("the copy of a hook the theme no longer has is still there (%v)", err)
	}
	// the site's own file there is kept
	if err := os.WriteFile(hook, []byte("theme"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, []byte("site's own"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, changed, _ := SyncHostHooks(root, root, themes); changed {
		t.Error("the site's own host hook was replaced")
	}
	if b, _ := os.ReadFile(dst); string(b) != "site's own" {
		t.Errorf("site's own file now %q", b)
	}
}
