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
