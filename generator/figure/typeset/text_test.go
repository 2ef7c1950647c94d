package typeset

import (
	"bytes"
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
