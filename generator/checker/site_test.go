package checker

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestReferencePagesTranslated holds that both reference pages have a
// Japanese translation: neither falls back to Korean.
func TestReferencePagesTranslated(t *testing.T) {
	s := loadReference(t)
	for _, f := range s.Fallbacks()["ja"] {
		t.Errorf("ja page for %q falls back to the Korean original", f.Source.Key)
	}
}

func TestFallbackFromSourcePage(t *testing.T) {
	dir := sitetest.CopyProject(t)
	sitetest.Untranslate(t, dir)
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var found *project.Fallback
	for _, f := range s.Fallbacks()["ja"] {
		if f.Source.Key == "virtualservice-destinationrule" {
			f := f
			found = &f
		}
	}
	if found == nil {
		t.Fatal("no ja fallback for the VirtualService/DestinationRule page")
	}
	if found.Target == nil || found.Target.Title == "" || found.Target.Title == found.Source.Title {
		t.Fatalf("fallback should keep the ja page's own title; target=%+v", found.Target)
	}
	b, err := found.Render(s.Config.Source())
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, want := range []string{"title: " + found.Target.Title, "evdoc_fallback:", "lang: ko", "source_url: /docs/istio/traffic/virtualservice-destinationrule/"} {
		if !strings.Contains(out, want) {
			t.Errorf("fallback page lacks %q", want)
		}
	}
	if !strings.HasSuffix(out, string(found.Source.Body())) {
		t.Error("fallback body is not the Korean body verbatim")
	}
	// A translated page is not a fallback.
	for _, f := range s.Fallbacks()["ja"] {
		if f.Source.Key == "gslb-dns-flip-qa" {
			t.Error("the translated Q&A page must not fall back")
		}
	}
}
