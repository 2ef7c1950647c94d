package site

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
)

// reference is the reference site built once for every test that only
// reads the built output (TestBuildReferenceSite, TestBuildReproducible,
// TestLinkWalk's root layout, TestBrowser): a copy of the project with
// the ja VirtualService/DestinationRule page untranslated (so the site
// has a fallback page), built under baseURL "/". Building it once instead
// of once per test keeps the package's run, under -race too, within go
// test's default timeout.
var reference struct {
	once sync.Once
	dir  string // the project; its site is in dir/public
}

// builtReference returns the project directory of the shared build,
// building it on first use. It skips under -short.
func builtReference(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Hugo")
	}
	reference.once.Do(func() {
		dir, err := os.MkdirTemp("", "evdoc-reference-")
		if err != nil {
			t.Fatal(err)
		}
		copyProjectTo(t, dir)
		untranslate(t, dir)
		s, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Build(context.Background(), BuildOptions{Out: "public", Hugo: hugoCommand(t), Check: check.DefaultOptions()}); err != nil {
			t.Fatal(err)
		}
		reference.dir = dir
	})
	if reference.dir == "" {
		t.Fatal("the shared build of the reference site failed (see the first test that asked for it)")
	}
	return reference.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if reference.dir != "" {
		os.RemoveAll(reference.dir)
	}
	os.Exit(code)
}
