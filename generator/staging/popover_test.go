package staging

import (
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/viewer"
)

// TestPopoverKeys: each claim data key is in the list of the set of its
// first value (ClaimData.Set), whatever set its destination names, once,
// and each list is sorted: the popover file of that set holds its body,
// and the claim's popover names that set (data-ev-s).
func TestPopoverKeys(t *testing.T) {
	claims := map[string]viewer.ClaimData{
		"ev:b/x":      {Set: "b"},
		"ev:a/y":      {Set: "a"},
		"ev:a/x":      {Set: "a"},
		"ev:a/x ~1":   {Set: "a"},
		"ev:c/z,d/w":  {Set: "c"},
		"ev:d/w,c/z":  {Set: "d"},
		"ev:y":        {Set: "b"}, // a destination without its set: the first value's
		"ev:b/x ~2":   {Set: "b"},
		"ev:b/dup ~0": {Set: "b"},
	}
	want := map[string][]string{
		"a": {"ev:a/x", "ev:a/x ~1", "ev:a/y"},
		"b": {"ev:b/dup ~0", "ev:b/x", "ev:b/x ~2", "ev:y"},
		"c": {"ev:c/z,d/w"},
		"d": {"ev:d/w,c/z"},
	}
	if got := popoverKeys(claims); !reflect.DeepEqual(got, want) {
		t.Errorf("popoverKeys = %v, want %v", got, want)
	}
}

// TestPopoverVersions: a set's popover file version changes with any
// byte of the claim data of its keys and with the sets' data, and only
// then: a browser that kept the file of an earlier build loads the new
// one when one of its values changed, and keeps the others.
func TestPopoverVersions(t *testing.T) {
	claims := func(line int) map[string]viewer.ClaimData {
		return map[string]viewer.ClaimData{
			"ev:a/x": {Set: "a", Target: viewer.Target{File: "evidence/a/r.txt", Line: line}},
			"ev:a/y": {Set: "a", Target: viewer.Target{File: "evidence/a/r.txt", Line: 3}},
			"ev:b/z": {Set: "b", Target: viewer.Target{File: "evidence/b/r.txt", Line: 2}},
		}
	}
	versions := func(c map[string]viewer.ClaimData, sets string) map[string]string {
		t.Helper()
		v, err := popoverVersions(popoverKeys(c), c, []byte(sets))
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != 2 || len(v["a"]) != 16 || len(v["b"]) != 16 {
			t.Fatalf("popoverVersions = %v, want 16 hex digits for sets a and b", v)
		}
		return v
	}
	base := versions(claims(1), `{"a":{}}`)
	if again := versions(claims(1), `{"a":{}}`); !reflect.DeepEqual(again, base) {
		t.Errorf("the same data gave %v, then %v", base, again)
	}
	moved := versions(claims(2), `{"a":{}}`)
	if moved["a"] == base["a"] {
		t.Errorf("set a's version %s did not change with its claim data", base["a"])
	}
	if moved["b"] != base["b"] {
		t.Errorf("set b's version changed (%s → %s) with set a's claim data", base["b"], moved["b"])
	}
	sets := versions(claims(1), `{"a":{"origin":"x"}}`)
	if sets["a"] == base["a"] || sets["b"] == base["b"] {
		t.Errorf("versions %v did not change with the sets' data (before %v)", sets, base)
	}
}
