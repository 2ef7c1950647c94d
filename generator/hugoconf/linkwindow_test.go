package hugoconf

import (
	"testing"
	"time"
)

// TestLinkWindow: whether a page is linkable at a time, read from its
// front matter (drafts, publish and expiry dates, headless, build
// options, the configuration's buildDrafts/buildFuture/buildExpired),
// and the window LinkWindow keeps holds the same at every time: the
// dates' own instants included, a date of year 1 too.
func TestLinkWindow(t *testing.T) {
	day := func(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }
	before, at, after := day("2026-06-30"), day("2026-07-01"), day("2026-07-02")
	plain := &Config{}
	all := &Config{BuildDrafts: true, BuildFuture: true, BuildExpired: true}
	for _, c := range []struct {
		name string
		cfg  *Config
		fm   map[string]any
		want [3]bool // linkable before, at and after 2026-07-01
	}{
		{"no dates", plain, map[string]any{"title": "x"}, [3]bool{true, true, true}},
		{"draft", plain, map[string]any{"draft": true}, [3]bool{}},
		{"draft, buildDrafts", all, map[string]any{"Draft": true}, [3]bool{true, true, true}},
		{"publishDate", plain, map[string]any{"publishDate": "2026-07-01"}, [3]bool{false, true, true}},
		{"date after publishDate", plain, map[string]any{"publishDate": "2026-07-01", "date": "2020-01-01"}, [3]bool{false, true, true}},
		{"date", plain, map[string]any{"date": at}, [3]bool{false, true, true}},
		{"future, buildFuture", all, map[string]any{"date": "2026-07-01"}, [3]bool{true, true, true}},
		{"expiryDate", plain, map[string]any{"expiryDate": "2026-07-01"}, [3]bool{true, true, false}},
		{"unpublishdate", plain, map[string]any{"unpublishdate": "2026-07-01"}, [3]bool{true, true, false}},
		{"expired, buildExpired", all, map[string]any{"expiryDate": "2026-07-01"}, [3]bool{true, true, true}},
		{"expiry in year 1", plain, map[string]any{"expiryDate": "0001-01-01"}, [3]bool{}},
		{"publish in year 1", plain, map[string]any{"publishDate": "0001-01-01"}, [3]bool{true, true, true}},
		{"both", plain, map[string]any{"publishDate": "2026-07-01", "expiryDate": "2026-07-01"}, [3]bool{false, true, false}},
		{"headless", plain, map[string]any{"headless": true}, [3]bool{}},
		{"build render never", plain, map[string]any{"build": map[string]any{"render": "never"}}, [3]bool{}},
		{"_build render false", plain, map[string]any{"_build": map[string]any{"render": false}}, [3]bool{}},
		{"build render always", plain, map[string]any{"build": map[string]any{"render": "always"}}, [3]bool{true, true, true}},
	} {
		w := LinkWindow(c.cfg, c.fm)
		for i, now := range []time.Time{before, at, after} {
			if got := Linkable(c.cfg, c.fm, now); got != c.want[i] {
				t.Errorf("%s: Linkable at %s = %v, want %v", c.name, now.Format("2006-01-02"), got, c.want[i])
			}
			if got := w.Includes(now); got != c.want[i] {
				t.Errorf("%s: LinkWindow %+v includes %s: %v, want %v", c.name, w, now.Format("2006-01-02"), got, c.want[i])
			}
		}
	}
}
