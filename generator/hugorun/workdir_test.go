package hugorun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/internal/lock"
)

// TestPlantedWorkEntries: a work directory whose entries lead elsewhere
// (a link as .evdoc/tmp, a link inside .evdoc/hugo-cache, a FIFO) stops
// LockProject and WorkDir naming the entry; evdoc's own entries do not.
func TestPlantedWorkEntries(t *testing.T) {
	outside := t.TempDir()
	tests := []struct {
		name  string
		plant func(work string) error
		bad   string // the entry named, "" for none
	}{
		{"own", func(w string) error {
			if err := os.MkdirAll(filepath.Join(w, "hugo-cache", "modules"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(w, "tmp.txt"), nil, 0o644)
		}, ""},
		{"tmp link", func(w string) error { return os.Symlink(outside, filepath.Join(w, "tmp")) }, "tmp"},
		{"cache link", func(w string) error { return os.Symlink(outside, filepath.Join(w, "hugo-cache")) }, "hugo-cache"},
		{"link in cache", func(w string) error {
			if err := os.MkdirAll(filepath.Join(w, "hugo-cache", "images"), 0o755); err != nil {
				return err
			}
			return os.Symlink(outside, filepath.Join(w, "hugo-cache", "images", "x"))
		}, "hugo-cache/images/x"},
		{"stage link", func(w string) error { return os.Symlink(outside, filepath.Join(w, "stage-1")) }, "stage-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			work := filepath.Join(root, hugoconf.WorkDirName)
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tt.plant(work); err != nil {
				t.Fatal(err)
			}
			_, werr := WorkDir(root)
			l, lerr := LockProject(context.Background(), root, lock.Options{})
			if l != nil {
				l.Unlock()
			}
			for _, err := range []error{werr, lerr} {
				switch {
				case tt.bad == "" && err != nil:
					t.Errorf("refused: %v", err)
				case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), filepath.Join(work, filepath.FromSlash(tt.bad))+" is ")):
					t.Errorf("err = %v, want one naming %s", err, tt.bad)
				}
			}
			if entries, _ := os.ReadDir(outside); len(entries) > 0 {
				t.Errorf("wrote outside: %v", entries)
			}
		})
	}
}
