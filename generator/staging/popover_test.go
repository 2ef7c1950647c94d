package staging

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
	if got := popoverKeys(claimJSONs(claims)); !reflect.DeepEqual(got, want) {
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
		cj := claimJSONs(c)
		v, err := (&claimFileCache{}).popoverVersions(popoverKeys(cj), cj, []byte(sets))
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != 2 || len(v["a"]) != 16 || len(v["b"]) != 16 {
			t.Fatalf("popoverVersions = %v, want 16 hex digits for sets a and b", v)
		}
		return v
	}
	base := versions(claims(1), `{"a":{}}`)
	// the digest of sets.json, then each key and its claim data
	for set, want := range base {
		cj := claimJSONs(claims(1))
		h := sha256.New()
		h.Write([]byte(`{"a":{}}`))
		for _, k := range popoverKeys(cj)[set] {
			b, err := cj[k].marshaled()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "\x00%s\x00%d:", k, len(b))
			h.Write(b)
		}
		if got := hex.EncodeToString(h.Sum(nil))[:16]; got != want {
			t.Errorf("set %s's version %s, want %s", set, want, got)
		}
	}
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

// claimJSONs wraps claim data as stageClaimsOf takes it.
func claimJSONs(claims map[string]viewer.ClaimData) map[string]*claimJSON {
	out := make(map[string]*claimJSON, len(claims))
	for k, cd := range claims {
		out[k] = &claimJSON{cd: cd}
	}
	return out
}

// TestClaimsFile: claims.json made from each key's indented JSON is
// json.MarshalIndent(claims, "", " ") byte for byte: keys in order and
// escaped as encoding/json escapes them (HTML characters), values with
// nested objects and lists, empty lists, no data at all.
func TestClaimsFile(t *testing.T) {
	var cds []viewer.ClaimData
	for _, js := range []string{
		`{"file":"evidence/a/r.txt","line":3,"col":7,"page":"evidence/a/r-txt","origin":"raw","set":"a","values":[{"ref":"a/x","value":"12 ms","shown":"12.0 ms","file":"evidence/a/r.txt","line":3,"page":"p","rawline":{"before":"x <b> & ","token":"12","after":" ms","cut_after":true}}]}`,
		`{"file":"evidence/b/r.md","line":1,"page":"q","set":"b","values":[]}`,
		`{"file":"evidence/c/r.md","line":9,"page":"q","set":"c","values":[{"ref":"c/d","value":"≈43.9%","file":"f","line":1,"page":"p","derivation":{"expr":"a / b","numbers":"18 / 41","result":"43.9%","approx":true,"inputs":[{"name":"a","value":"18","file":"f","line":2,"page":"p"},{"name":"b","value":"41","file":"f","line":3,"page":"p","rawline":{"before":"","token":"41","after":"\u2028"}}]}}]}`,
	} {
		var cd viewer.ClaimData
		if err := json.Unmarshal([]byte(js), &cd); err != nil {
			t.Fatal(err)
		}
		cds = append(cds, cd)
	}
	for _, claims := range []map[string]viewer.ClaimData{
		{},
		{"ev:a/x": cds[0]},
		{"ev:a/x": cds[0], "ev:a/x ~1": cds[0], "ev:b/<y>&z": cds[1], "ev:c/d": cds[2], "ev:\"q\"": cds[1]},
	} {
		want, err := json.MarshalIndent(claims, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := (&claimFileCache{}).claimsFile(claimJSONs(claims))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("claimsFile of %d keys:\n%s\nwant (json.MarshalIndent)\n%s", len(claims), got, want)
		}
	}
}

// TestClaimFileCache: the claim data file and the popover versions made
// with a cache kept from one staging to the next (claimFileCache, as
// StageEditCached keeps it), where unchanged keys keep their claim
// data (the same *claimJSON) and changed ones get new data, are the
// bytes made without it, step by step: a value changed, a key added,
// one removed, a key's data moved to another set, sets.json changed,
// nothing changed, every key gone.
func TestClaimFileCache(t *testing.T) {
	cd := func(set string, line int) *claimJSON {
		return &claimJSON{cd: viewer.ClaimData{Set: set, Target: viewer.Target{File: "evidence/" + set + "/r.txt", Line: line}}}
	}
	cur := map[string]*claimJSON{"ev:a/x": cd("a", 1), "ev:a/y": cd("a", 2), "ev:b/z": cd("b", 3), "ev:b/z ~1": nil}
	cur["ev:b/z ~1"] = cur["ev:b/z"] // a precision key shares its data
	sets := `{"a":{}}`
	steps := []struct {
		name   string
		change func()
	}{
		{"first", func() {}},
		{"a value changed", func() { cur["ev:a/x"] = cd("a", 7) }},
		{"a key added", func() { cur["ev:c/w"] = cd("c", 1) }},
		{"a key removed", func() { delete(cur, "ev:a/y") }},
		{"moved to another set", func() { cur["ev:c/w"] = cd("b", 1) }},
		{"sets.json changed", func() { sets = `{"a":{"origin":"x"}}` }},
		{"nothing changed", func() {}},
		{"a key removed and another added", func() { delete(cur, "ev:a/x"); cur["ev:a/v"] = cd("a", 1) }},
		{"every key gone", func() { clear(cur) }},
		{"back", func() { cur["ev:a/x"] = cd("a", 1) }},
	}
	fc := &claimFileCache{}
	for _, step := range steps {
		step.change()
		keys := popoverKeys(cur)
		got, err := fc.claimsFile(cur)
		if err != nil {
			t.Fatal(err)
		}
		want, err := (&claimFileCache{}).claimsFile(cur)
		if err != nil {
			t.Fatal(err)
		}
		plain := map[string]viewer.ClaimData{}
		for k, c := range cur {
			plain[k] = c.cd
		}
		indent, err := json.MarshalIndent(plain, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) || string(want) != string(indent) {
			t.Errorf("%s: claims.json with the cache\n%s\nwithout\n%s\njson.MarshalIndent\n%s", step.name, got, want, indent)
		}
		gotV, err := fc.popoverVersions(keys, cur, []byte(sets))
		if err != nil {
			t.Fatal(err)
		}
		wantV, err := (&claimFileCache{}).popoverVersions(keys, cur, []byte(sets))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotV, wantV) {
			t.Errorf("%s: popover versions with the cache %v, without %v", step.name, gotV, wantV)
		}
	}
}
