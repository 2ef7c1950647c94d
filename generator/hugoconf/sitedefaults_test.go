package hugoconf

import (
	"sort"
	"strings"
	"testing"
)

func TestMainSectionsKey(t *testing.T) {
	for _, c := range []struct {
		m    map[string]any
		want string // the languages set, sorted, "" for all
	}{
		{map[string]any{"title": "x"}, "-"},
		{map[string]any{"mainsections": []any{"posts"}}, ""},
		{map[string]any{"params": map[string]any{"mainsections": []any{"posts"}}}, ""},
		{map[string]any{"languages": map[string]any{"ko": map[string]any{"params": map[string]any{"mainsections": "posts"}}, "ja": map[string]any{}}}, "ko"},
		{map[string]any{"languages": map[string]any{"ko": map[string]any{"mainsections": "posts"}}}, "ko"},
		{map[string]any{"params": map[string]any{"main": "x"}}, "-"},
	} {
		got := "-"
		if set := mainSectionsKey(c.m); set != nil {
			var ls []string
			for l := range set {
				ls = append(ls, l)
			}
			sort.Strings(ls)
			got = strings.Join(ls, ",")
		}
		if got != c.want {
			t.Errorf("mainSectionsKey(%v) = %q, want %q", c.m, got, c.want)
		}
	}

}
