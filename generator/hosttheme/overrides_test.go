package hosttheme

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestOverrides: a component hook file replacing a later theme's file of
// the same name is reported when that file has content of its own (under
// partials/ or _partials/), never when it is empty or only comments, nor
// for evdoc's own partials, nor for a theme listed before the component.
func TestOverrides(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("themes/evdoc/layouts/_partials/head-additions.html", `{{ partial "evdoc/head.html" . }}`)
	write("themes/evdoc/layouts/_partials/extend_head.html", `{{ partial "evdoc/head.html" . }}`)
	write("themes/evdoc/layouts/_partials/hooks/body-end.html", `{{ partial "evdoc/serve-banner.html" . }}`)
	write("themes/evdoc/layouts/_partials/evdoc/head.html", `<link>`)
	write("themes/evdoc/layouts/_partials/docs/links/edit.html", `{{ .Path }}`)
	write("themes/host/layouts/_partials/docs/links/edit.html", `<a href="x">edit</a>`)
	// host: head-additions with content under the older partials/ name,
	// extend_head only comments, evdoc/head.html its own and docs/links/edit.html
	// one the component replaces on purpose (never reported).
	write("themes/host/layouts/partials/head-additions.html", "{{/* analytics */}}\n<script src=\"/a.js\"></script>\n")
	write("themes/host/layouts/_partials/extend_head.html", "{{- /* override this */ -}}\n<!-- empty -->\n  \n")
	write("themes/host/layouts/_partials/evdoc/head.html", "<meta>")
	// before: listed before the component, so its file wins anyway.
	write("themes/before/layouts/_partials/hooks/body-end.html", "<footer>x</footer>")

	got := Overrides(root, []string{"before", "evdoc", "host"})
	want := []Override{{Layout: "_partials/head-additions.html", Theme: "host", File: "themes/host/layouts/partials/head-additions.html"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Overrides = %+v, want %+v", got, want)
	}
	if got := Overrides(root, []string{"host", "evdoc"}); got != nil {
		t.Errorf("component listed last: %+v, want none", got)
	}
	// A link where the theme's file would be is not read as content.
	if err := os.Remove(filepath.Join(root, "themes/host/layouts/partials/head-additions.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, "themes/host/layouts/partials/head-additions.html")); err != nil {
		t.Fatal(err)
	}
	if got := Overrides(root, []string{"evdoc", "host"}); got != nil {
		t.Errorf("a link: %+v, want none", got)
	}
}
