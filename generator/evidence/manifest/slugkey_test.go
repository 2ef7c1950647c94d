package manifest

import "testing"

// TestSlugKeyFastPath: a key SlugKey returns unchanged without slugging
// it (isSlug) is exactly one slugging leaves unchanged.
func TestSlugKeyFastPath(t *testing.T) {
	for _, key := range []string{
		"r12.duration", "a", "a_b.c9", "_x._1", "r1.bytes_sent",
		"1a", "a.1b", "A.b", "a..b", ".a", "a.", "", "p(90)", "a.p(99.9)", "a-b", "http_req.p95", "한.a", "a b",
	} {
		want := slugSegments(key)
		if got := SlugKey(key); got != want {
			t.Errorf("SlugKey(%q) = %q; want %q", key, got, want)
		}
		if isSlug(key) && want != key {
			t.Errorf("isSlug(%q) but its slug is %q", key, want)
		}
	}
}
