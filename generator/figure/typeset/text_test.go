package typeset

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
)

// TestFontOverride: a project's assets/fonts file overrides the embedded
// font of the same name; a missing directory means the embedded fonts; an
// unreadable override is an error naming the font.
func TestFontOverride(t *testing.T) {
	hangul := '지'
	embedded, err := LoadChain(filepath.Join(t.TempDir(), "no-such-dir"), "ko")
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := embedded.pick(nil, hangul); i != 0 {
		t.Fatalf("embedded ko chain draws %q with font %d; want NanumSquare (0)", hangul, i)
	}
	dir := t.TempDir()
	// Go Regular under NanumSquare's name: a font without Hangul.
	if err := os.WriteFile(filepath.Join(dir, "NanumSquareR.ttf"), goregular.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	over, err := LoadChain(dir, "ko")
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := over.pick(nil, hangul); i == 0 {
		t.Fatalf("override NanumSquareR.ttf (Go Regular) still draws %q", hangul)
	}
	bad := t.TempDir()
	if err := os.Mkdir(filepath.Join(bad, "ipagp.ttf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadChain(bad, "ja"); err == nil || !strings.Contains(err.Error(), "ipagp.ttf") {
		t.Fatalf("unreadable override: err %v; want an error naming ipagp.ttf", err)
	}
	if b, ok := EmbeddedFont("ipagp.LICENSE"); !ok || !bytes.Contains(b, []byte("IPA")) {
		t.Error("the IPA font licence is not embedded next to the font")
	}
}

// TestEmbeddedFontBytes: each embedded font, kept gzip-compressed, reads
// back as the font file's bytes (their SHA-256 as shipped), the same
// slice on each call; a name that is not an embedded font reads nothing.
func TestEmbeddedFontBytes(t *testing.T) {
	for name, want := range map[string]string{
		"ipagp.ttf":        "a63f6153841e56ec9df1b31a54d98d3f41d8aaa1c3d8df30a33502296f5b8068",
		"NanumSquareR.ttf": "5a51deae5237435d9a0bc0cc6cc30619a914b29801f895698cfdacadcad06e94",
	} {
		b, ok := EmbeddedFont(name)
		if !ok {
			t.Fatalf("EmbeddedFont(%q): not found", name)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want {
			t.Errorf("EmbeddedFont(%q): sha256 %s, want %s", name, got, want)
		}
		if again, _ := EmbeddedFont(name); &again[0] != &b[0] {
			t.Errorf("EmbeddedFont(%q) read the font again", name)
		}
	}
	for _, name := range []string{"", "ipagp", "ipagp.ttf.gz", "ipagp.ttf.LICENSE", "../typeset/fonts/ipagp.ttf", "fonts/ipagp.ttf", GoRegular} {
		if b, ok := EmbeddedFont(name); ok || b != nil {
			t.Errorf("EmbeddedFont(%q) = %d bytes, %v; want none", name, len(b), ok)
		}
	}
}
