package outscan

import (
	"context"
	"os"
	"testing"
)

// BenchmarkDir scans the built site named by EVDOC_OUTSCAN_DIR (a site
// evdoc build wrote, such as internal/benchsite's at 500 pages); it is
// skipped without it.
func BenchmarkDir(b *testing.B) {
	dir := os.Getenv("EVDOC_OUTSCAN_DIR")
	if dir == "" {
		b.Skip("EVDOC_OUTSCAN_DIR names no built site")
	}
	for b.Loop() {
		if _, err := Dir(context.Background(), dir, nil); err != nil {
			b.Fatal(err)
		}
	}
}
