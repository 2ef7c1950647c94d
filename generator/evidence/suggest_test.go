package evidence

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

func TestSuggest(t *testing.T) {
	st := &Store{Sets: []*Set{
		{Manifest: manifest.Manifest{ID: "dns-inflight-part2"}, values: map[string]*Value{
			"curl.strict.code":  {Ref: "dns-inflight-part2/curl.strict.code"},
			"curl.strict.after": {Ref: "dns-inflight-part2/curl.strict.after"},
			"curl.strict.time":  {Ref: "dns-inflight-part2/curl.strict.time"},
		}},
		{Manifest: manifest.Manifest{ID: "retry-istio-1.31"}, values: map[string]*Value{
			"fast503.received": {Ref: "retry-istio-1.31/fast503.received"},
		}},
	}}
	for _, tc := range []struct{ ref, want string }{
		// a typo in the middle: the longest common prefix would pick .after
		{"dns-inflight-part2/curl.strikt.code", "dns-inflight-part2/curl.strict.code"},
		{"dns-inflight-part2/curl.strict.tme", "dns-inflight-part2/curl.strict.time"},
		// only the set id mistyped
		{"dns-inflight-prat2/curl.strict.code", "dns-inflight-part2/curl.strict.code"},
		{"retry-istio-1.13/fast503.received", "retry-istio-1.31/fast503.received"},
		// both mistyped
		{"dns-inflight-part3/curl.strict.cod", "dns-inflight-part2/curl.strict.code"},
		// nothing close: no suggestion rather than a wrong one
		{"dns-inflight-part2/upstream.total", ""},
		{"other-lab/curl.strict.code", ""},
		{"no-slash", ""},
	} {
		got, ok := st.Suggest(tc.ref)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Suggest(%q) = %q, %v; want %q", tc.ref, got, ok, tc.want)
		}
	}
}
