package figure

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence"
)

var update = flag.Bool("update", false, "rewrite golden images under testdata/")

const repoRoot = "../.."

var fonts = map[string]string{"ko": "NanumSquareR.ttf", "ja": "ipagp.ttf"}

// TestRenderGolden renders the reference chart in each language and
// compares it byte for byte with testdata/NAME.LANG.png: rendering is pure
// Go with committed fonts, so the bytes are reproducible. Run with -update
// after an intended change and look at the new images.
func TestRenderGolden(t *testing.T) {
	st, errs := evidence.Load(repoRoot, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	specs, serrs := LoadSpecs(repoRoot, "figures")
	if serrs != nil || len(specs) == 0 {
		t.Fatalf("specs: %v (%d)", serrs, len(specs))
	}
	for _, s := range specs {
		for lang, font := range fonts {
			ttf, err := os.ReadFile(filepath.Join(repoRoot, "assets", "fonts", font))
			if err != nil {
				t.Fatal(err)
			}
			png, err := s.Render(st, lang, ttf)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := s.Render(st, lang, ttf)
			if !bytes.Equal(png, again) {
				t.Errorf("%s.%s: two renders differ", s.Name, lang)
			}
			golden := filepath.Join("testdata", s.Name+"."+lang+".png")
			if *update {
				if err := os.WriteFile(golden, png, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(png, want) {
				_ = os.WriteFile(golden+".got.png", png, 0o644)
				t.Errorf("%s.%s differs from %s; wrote %s.got.png", s.Name, lang, golden, golden)
			}
		}
	}
}

func TestDataIsDeltaFromBaseline(t *testing.T) {
	st, errs := evidence.Load(repoRoot, "evidence")
	if errs != nil {
		t.Fatal(errs)
	}
	specs, _ := LoadSpecs(repoRoot, "figures")
	deltas, inputs, err := specs[0].Data(st)
	if err != nil {
		t.Fatal(err)
	}
	// membership_change: 17 -> 18 18 18; upstream_cx_destroy_local: 7 -> 7 7 8
	if got := deltas[0]; got[0] != 1 || got[1] != 1 || got[2] != 1 {
		t.Errorf("membership_change deltas = %v", got)
	}
	if got := deltas[5]; got[0] != 0 || got[1] != 0 || got[2] != 1 {
		t.Errorf("upstream_cx_destroy_local deltas = %v", got)
	}
	if len(inputs) != 4*len(specs[0].Rows) || !strings.HasPrefix(inputs[0].Pos.String(), "evidence/dns-inflight-part2/report.md:") {
		t.Errorf("inputs = %d, first %v", len(inputs), inputs[0])
	}
}

func TestRenderErrors(t *testing.T) {
	st, _ := evidence.Load(repoRoot, "evidence")
	specs, _ := LoadSpecs(repoRoot, "figures")
	s := *specs[0]
	if _, err := s.Render(st, "fr", nil); err == nil || !strings.Contains(err.Error(), `for language "fr"`) {
		t.Errorf("missing language: %v", err)
	}
	s.Rows = append([]string{"no_such_counter"}, s.Rows...)
	if _, err := s.Render(st, "ko", nil); err == nil || !strings.Contains(err.Error(), "no_such_counter") {
		t.Errorf("missing value: %v", err)
	}
	if _, err := specs[0].Render(st, "ko", []byte("not a font")); err == nil {
		t.Error("bad font accepted")
	}
}
