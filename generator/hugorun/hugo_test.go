package hugorun

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugoWarnings: build --strict fails on Hugo's warnings but its own
// deprecation notices, which a theme's templates cause, and its notice
// that a theme's declared Hugo range does not hold the running Hugo; a template's
// warnf that mentions deprecation is a warning like any other.
func TestHugoWarnings(t *testing.T) {
	log := "Start building sites … \n" +
		"WARN  deprecated: .Language.LanguageName was deprecated in Hugo v0.158.0 and will be removed in Hugo 0.171.0. Use .Language.Label instead.\n" +
		"WARN  lab theme: oldParam is deprecated\n" +
		"WARN  raw HTML omitted while rendering \"content/ko/p.md\"\r\n" +
		"WARNING is not a level\n" +
		"INFO  deprecated: x was deprecated in Hugo v0.1.0\n" +
		"WARN  Module \"blowfish\" is not compatible with this Hugo version: 0.141.0/0.157.0 extended; run \"hugo mod graph\" for more information.\n" +
		"WARN  lab theme: Module \"x\" is not compatible with this Hugo version\n"
	warns, deprecated := Warnings([]byte(log))
	if len(warns) != 3 || warns[0] != "lab theme: oldParam is deprecated" || warns[1] != `raw HTML omitted while rendering "content/ko/p.md"` || !strings.HasPrefix(warns[2], "lab theme: Module") {
		t.Errorf("warnings %q", warns)
	}
	if len(deprecated) != 2 || !strings.Contains(deprecated[0], "LanguageName") || !strings.Contains(deprecated[1], `Module "blowfish"`) {
		t.Errorf("deprecation notices %q", deprecated)
	}
}

// TestHugoProblemsSplitWrites: lines split across writes are judged
// whole.
func TestHugoProblemsSplitWrites(t *testing.T) {
	in := "Start\nWARN  one\nTotal\nERROR two\nPages | 3\n"
	for size := 1; size <= len(in); size++ {
		var b strings.Builder
		h := &Problems{W: &b}
		for i := 0; i < len(in); i += size {
			if _, err := h.Write([]byte(in[i:min(i+size, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		if want := "WARN  one\nERROR two\n"; b.String() != want {
			t.Errorf("chunks of %d: got %q, want %q", size, b.String(), want)
		}
	}
}

// TestDirectTool: the pinned "go tool hugo" runs as Hugo's own binary, a
// direct child evdoc's death takes along (fault 5, kill -9 half).
func TestDirectTool(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Hugo when not cached")
	}
	got := directTool(context.Background(), PinnedHugo("../.."))
	if len(got) != 1 || filepath.Base(got[0]) != "hugo" {
		t.Fatalf("directTool(PinnedHugo) = %v, want one hugo binary", got)
	}
	for _, cmd := range [][]string{{"/usr/bin/hugo"}, {"sh", "-c", "x"}, {"go", "-C", "/nonexistent", "tool", "hugo"}} {
		if got := directTool(context.Background(), cmd); strings.Join(got, " ") != strings.Join(cmd, " ") {
			t.Errorf("directTool(%v) = %v, want it unchanged", cmd, got)
		}
	}
}

func TestExtendedAdvice(t *testing.T) {
	out := []byte(`ERROR TOCSS: failed to transform "scss/main.scss" (text/x-scss): this feature is not available in your current Hugo version, see https://goo.gl/YMrWcn for more information`)
	a := ExtendedAdvice(out, "/usr/bin/hugo")
	for _, want := range []string{"extended edition", "/usr/bin/hugo is the standard edition", "go install -tags extended", "--hugo PATH"} {
		if !strings.Contains(a, want) {
			t.Errorf("advice %q lacks %q", a, want)
		}
	}
	// FixIt's Dart Sass: no edition helps, the program sass does (Hugo
	// extended failed this way in a trial)
	dart := []byte(`ERROR error calling RelPermalink: TOCSS-DART: failed to transform "/scss/main.scss" (text/x-scss). You need to install Dart Sass, see https://gohugo.io//functions/css/sass/#dart-sass: this feature is not available in your current Hugo version, see https://goo.gl/YMrWcn for more information`)
	a = ExtendedAdvice(dart, "/usr/local/bin/hugo")
	if !strings.Contains(a, "Dart Sass") || !strings.Contains(a, "sass --version") || strings.Contains(a, "standard edition") || strings.Contains(a, "-tags extended") {
		t.Errorf("advice for Dart Sass: %q", a)
	}
	if a := ExtendedAdvice([]byte("ERROR template: home.html:3: unexpected EOF"), "hugo"); a != "" {
		t.Errorf("advice on an unrelated failure: %q", a)
	}
}
