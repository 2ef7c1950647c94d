package staging

import "testing"

// TestDataFile: the file of a set's claim and set data, as the
// component's evdoc/data-file.html and evdoc/claim-data.html find it
// from a set id or a claim data key (a site test builds pages from
// them: a file the templates look for elsewhere is a claim without
// data, an error of the build).
func TestDataFile(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"bench-001", "bench-001"},
		{"DNS_Pass.v2", "dns_pass.v2"},
		{"9a", "9a"},
		{"", "_"},
		{"-a", "_"},
		{".", "_"},
		{"..", "_"},
		{"a/b", "_"},
		{"a b", "_"},
		{"측정", "_"},
		{"_x", "_"},
	} {
		if got := DataFile(tc.id); got != tc.want {
			t.Errorf("DataFile(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	for _, tc := range []struct{ key, want string }{
		{"ev:bench-001/curl.s0.time", "assets/evdoc/claims/bench-001.json"},
		{"ev:D3/d3.a.pct ~1", "assets/evdoc/claims/d3.json"},
		{"ev:d3/a,d3/b", "assets/evdoc/claims/d3.json"},
		{"ev:측정/a", "assets/evdoc/claims/_.json"},
		{"ev:noslash", "assets/evdoc/claims/_.json"},
		{"xx:d3/a", "assets/evdoc/claims/_.json"},
	} {
		if got := ClaimsFile(tc.key); got != tc.want {
			t.Errorf("ClaimsFile(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
	if got, want := SetsFile("Bench-001"), "assets/evdoc/sets/bench-001.json"; got != want {
		t.Errorf("SetsFile = %q, want %q", got, want)
	}
}
