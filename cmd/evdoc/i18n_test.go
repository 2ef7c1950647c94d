package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestI18nStatusAndMark: status lists each page's state (text and JSON);
// mark brings a translation in sync; bad arguments exit 2.
func TestI18nStatusAndMark(t *testing.T) {
	dir := extract(t, "../../generator/translation/testdata/stale/stale.txtar")
	state := func() string {
		t.Helper()
		code, out, errOut := evdoc("i18n", "status", "--format=json", "--root", dir)
		if code != 0 {
			t.Fatalf("status: exit %d %s", code, errOut)
		}
		var rec struct {
			Source    string `json:"source"`
			Languages map[string]struct {
				State string `json:"state"`
			} `json:"languages"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &rec); err != nil {
			t.Fatalf("status JSON %q: %v", out, err)
		}
		if rec.Source != "content/ko/docs/p.md" || rec.Languages["ko"].State != "source" {
			t.Fatalf("status %+v", rec)
		}
		return rec.Languages["ja"].State
	}
	if s := state(); s != "unmarked" {
		t.Fatalf("before mark: %q", s)
	}
	if code, out, errOut := evdoc("i18n", "mark", "content/ja/docs/p.md", "--root", dir); code != 0 || !strings.Contains(out, "marked in sync with content/ko/docs/p.md") {
		t.Fatalf("mark: exit %d %s %s", code, out, errOut)
	}
	if s := state(); s != "in sync" {
		t.Fatalf("after mark: %q", s)
	}
	if code, out, _ := evdoc("i18n", "status", "--root", dir); code != 0 || !strings.Contains(out, "  ja: in sync  content/ja/docs/p.md") {
		t.Errorf("text status: exit %d\n%s", code, out)
	}
	if code, _, errOut := evdoc("i18n", "mark", "content/ja/docs/nope.md", "--root", dir); code != 2 || !strings.Contains(errOut, "not a content page") {
		t.Errorf("unknown page: exit %d %s", code, errOut)
	}
	if code, _, _ := evdoc("i18n", "status", "--format=xml", "--root", dir); code != 2 {
		t.Errorf("bad format: exit %d", code)
	}
}
