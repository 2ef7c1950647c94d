package buildtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// mainList is the home page's list of main-section pages in the
// mainsections fixture theme.
var mainList = regexp.MustCompile(`(?s)<ul id="main".*?</ul>`)

// TestBuildMainSections builds testdata/mainsections.txtar, whose
// evidence section has more pages than any section of the project and
// which sets no mainSections, with evdoc and with plain Hugo: each
// language's home page lists the same main-section pages in both (ko
// its posts, ja its docs), never evidence pages.
func TestBuildMainSections(t *testing.T) {
	skipShort(t)
	t.Parallel()
	dir := txtartest.WriteFile(t, filepath.Join("testdata", "mainsections.txtar"))
	sitetest.CopyTree(t, filepath.Join(sitetest.Root(t), "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
	hugo := sitetest.HugoCommand(t)
	plain := exec.Command(hugo[0], append(hugo[1:], "--source", dir, "--destination", filepath.Join(dir, "plain"), "--logLevel", "warn")...)
	plain.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(t.TempDir(), "cache"))
	if out, err := plain.CombinedOutput(); err != nil {
		t.Fatalf("plain hugo: %v\n%s", err, out)
	}
	build(t, dir, site.BuildOptions{})
	for home, want := range map[string]string{"index.html": "[posts]", filepath.Join("ja", "index.html"): "[docs]"} {
		read := func(out string) string {
			b, err := os.ReadFile(filepath.Join(dir, out, home))
			if err != nil {
				t.Fatal(err)
			}
			return mainList.FindString(string(b))
		}
		withEvdoc, without := read("public"), read("plain")
		if withEvdoc != without || without == "" {
			t.Errorf("%s: evdoc build lists\n%s\nplain hugo lists\n%s", home, withEvdoc, without)
		}
		if !regexp.MustCompile(`data-sections="` + regexp.QuoteMeta(want) + `" data-param="` + regexp.QuoteMeta(want) + `"`).MatchString(withEvdoc) {
			t.Errorf("%s: main sections in evdoc's build: %s; want %s", home, withEvdoc, want)
		}
	}
}
