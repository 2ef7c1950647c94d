package site

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestSlotsSameOutput builds projects with claim slots and without
// (noSlots, as evdoc serve stages): the two outputs must be the same
// bytes, file for file, and the slotted build must have given slots to
// claims (none on a site Hugo minifies).
func TestSlotsSameOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	for _, tc := range []struct {
		name   string
		config string // appended to hugo.toml
		slots  bool   // the slotted build gives slots
	}{
		{"plain", "", true},
		// evdoc's output check does not read a minified popover file
		{"minify", "\n[minify]\n  minifyOutput = true\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := sitetest.ThemedProject(t, filepath.Join("testdata", "slots.txtar"))
			if tc.config != "" {
				f, err := os.OpenFile(filepath.Join(dir, "hugo.toml"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(tc.config); err != nil {
					t.Fatal(err)
				}
				f.Close()
				if err := os.WriteFile(filepath.Join(dir, "evdoc.toml"), []byte("[rules]\nlink-output-popover = \"warning\"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			outs := map[bool]string{}
			for _, noSlots := range []bool{false, true} {
				s, err := project.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				var log bytes.Buffer
				out := filepath.Join(t.TempDir(), "public")
				err = Build(context.Background(), s, BuildOptions{Out: out, Hugo: sitetest.HugoCommand(t), Check: check.DefaultOptions(), Log: &log, Verbose: true, noSlots: noSlots})
				if err != nil {
					t.Fatalf("noSlots=%v: %v\n%s", noSlots, err, log.String())
				}
				n := 0
				if m := regexp.MustCompile(`(\d+) claims with slots`).FindStringSubmatch(log.String()); m != nil {
					n, _ = strconv.Atoi(m[1])
				}
				t.Logf("noSlots=%v: %d claims with slots", noSlots, n)
				switch {
				case noSlots && n > 0:
					t.Errorf("noSlots: %d claims with slots", n)
				case !noSlots && tc.slots && n == 0:
					t.Errorf("no claim got a slot:\n%s", log.String())
				case !noSlots && !tc.slots && n > 0:
					t.Errorf("%d claims got slots on a minified site", n)
				}
				outs[noSlots] = out
			}
			same(t, outs[false], outs[true])
		})
	}
}

// same reports every file that differs between the trees a and b.
func same(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			b, err := os.ReadFile(p)
			m[filepath.ToSlash(rel)] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fa, fb := files(a), files(b)
	for rel, x := range fa {
		y, ok := fb[rel]
		switch {
		case !ok:
			t.Errorf("%s: only in the slotted build", rel)
		case !bytes.Equal(x, y):
			i := 0
			for i < len(x) && i < len(y) && x[i] == y[i] {
				i++
			}
			t.Errorf("%s differs at byte %d:\nslots:    %q\nno slots: %q", rel, i, x[max(0, i-80):min(len(x), i+120)], y[max(0, i-80):min(len(y), i+120)])
		}
	}
	for rel := range fb {
		if _, ok := fa[rel]; !ok {
			t.Errorf("%s: only in the build without slots", rel)
		}
	}
	if len(fa) < 5 {
		t.Errorf("the build wrote %d files", len(fa))
	}
	for rel, x := range fa {
		if strings.HasSuffix(rel, ".html") && bytes.Contains(x, []byte("<evdoc-c")) {
			t.Errorf("%s: a placeholder left", rel)
		}
	}
}
