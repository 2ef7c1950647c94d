package site

import "testing"

// TestRenderedByHugo: drafts, headless bundles and pages Hugo is told
// not to render are not expected in the output.
func TestRenderedByHugo(t *testing.T) {
	tests := []struct {
		fm   map[string]any
		want bool
	}{
		{nil, true},
		{map[string]any{"draft": false}, true},
		{map[string]any{"draft": true}, false},
		{map[string]any{"headless": true}, false},
		{map[string]any{"build": map[string]any{"render": "never"}}, false},
		{map[string]any{"build": map[string]any{"render": "link"}}, false},
		{map[string]any{"build": map[string]any{"render": "always"}}, true},
		{map[string]any{"_build": map[string]any{"render": false}}, false},
	}
	for _, tt := range tests {
		if got := renderedByHugo(tt.fm); got != tt.want {
			t.Errorf("renderedByHugo(%v) = %v, want %v", tt.fm, got, tt.want)
		}
	}
}
