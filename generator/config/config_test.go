package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		rules diag.RuleConfig
		err   string // the first diagnostic, "" for none
	}{
		{"empty", "", diag.RuleConfig{}, ""},
		{"table", "# strictness\n[rules]\nlink-missing-page = \"error\"\nclaim-unchecked = 'off'\ntranslation-claims = \"info\"\n",
			diag.RuleConfig{diag.LinkMissingPage: diag.Error, diag.ClaimUnchecked: diag.Off, diag.TranslationClaims: diag.Note}, ""},
		{"quoted key", "[rules]\n\"claim-unbound\" = \"warning\"\n", diag.RuleConfig{diag.ClaimUnbound: diag.Warning}, ""},
		{"core rule kept an error", "[rules]\nclaim-mismatch = \"error\"\n", diag.RuleConfig{diag.ClaimMismatch: diag.Error}, ""},
		{"core rule off", "[rules]\nclaim-mismatch = \"off\"\n", nil,
			`evdoc.toml:2:18: error: rule claim-mismatch is a core rule: it judges the numbers a page publishes, and the repository being checked cannot set it to "off"; expected no setting, or "error" [site-config]`},
		{"core rule dotted", "rules.claim-unknown-ref = \"warning\"\n", nil, `evdoc.toml:1:27: error: rule claim-unknown-ref is a core rule`},
		{"core rule inline", "rules = { claim-arity = \"note\" }\n", nil, `evdoc.toml:1:25: error: rule claim-arity is a core rule`},
		{"dotted", "rules.link-malformed = \"note\"\n", diag.RuleConfig{diag.LinkMalformed: diag.Note}, ""},
		{"inline", "rules = { link-malformed = \"error\", figure-data = \"warning\" }\n",
			diag.RuleConfig{diag.LinkMalformed: diag.Error, diag.FigureData: diag.Warning}, ""},
		{"unknown rule", "[rules]\nlink-missing-page = \"error\"\n  claim-mismach = \"off\"\n", nil,
			`evdoc.toml:3:3: error: unknown rule "claim-mismach" in [rules]; expected a rule id that ` + "`evdoc rules`" + ` lists [site-config]`},
		{"unknown severity", "[rules]\nclaim-mismatch = \"fatal\"\n", nil,
			`evdoc.toml:2:18: error: rule claim-mismatch: severity "fatal"; expected one of error, warning, note (or info) or off [site-config]`},
		{"not a string", "[rules]\nclaim-mismatch = 2\n", nil, "evdoc.toml:2:1: error: rule claim-mismatch: expected a string"},
		{"unknown table", "[rule]\nclaim-mismatch = \"off\"\n", nil, "evdoc.toml:1:2: error: unknown table [rule]; expected [rules]"},
		{"array table", "[[rules]]\n", nil, "evdoc.toml:1:3: error: unknown table [[rules]]"},
		{"top-level key", "strict = true\n", nil, "evdoc.toml:1:1: error: unknown key strict; expected a [rules] table"},
		{"dotted in table", "[rules]\nclaim.mismatch = \"off\"\n", nil, "evdoc.toml:2:1: error: dotted key claim.mismatch in [rules]"},
		{"twice", "[rules]\nclaim-unbound = \"off\"\nclaim-unbound = \"error\"\n", nil, "evdoc.toml:3:1: error: rule claim-unbound is already set at evdoc.toml:2:1"},
		{"table twice", "[rules]\n[rules]\n", nil, "evdoc.toml:2:2: error: [rules] is defined twice"},
		{"invalid toml", "[rules]\nclaim-mismatch = \"off\n", nil, "evdoc.toml:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ds := Parse(File, []byte(tt.src))
			if tt.err == "" {
				if len(ds) > 0 {
					t.Fatalf("unexpected diagnostics:\n%v", ds)
				}
				if len(c.Rules) != len(tt.rules) {
					t.Fatalf("rules = %v, want %v", c.Rules, tt.rules)
				}
				for id, sev := range tt.rules {
					if c.Rules[id] != sev {
						t.Errorf("rule %s = %q, want %q", id, c.Rules[id], sev)
					}
				}
				return
			}
			if len(ds) == 0 || !strings.HasPrefix(ds[0].String(), tt.err) {
				t.Fatalf("diagnostics:\n%v\nwant first starting with %q", ds, tt.err)
			}
			if ds[0].Rule != diag.SiteConfig || ds[0].Severity != diag.Error {
				t.Errorf("rule %s severity %s, want site-config error", ds[0].Rule, ds[0].Severity)
			}
		})
	}
}

// TestCoreRulesCannotBeLowered sets every core rule to every severity
// below error: each is an error at its value, and the rule keeps its
// catalogue severity. A rule that is not core can be lowered.
func TestCoreRulesCannotBeLowered(t *testing.T) {
	for _, id := range CoreRules() {
		r, ok := diag.LookupRule(id)
		if !ok || r.Severity != diag.Error {
			t.Errorf("core rule %s: catalogue severity %q, want error", id, r.Severity)
		}
		for _, sev := range []string{"warning", "note", "info", "off"} {
			src := "[rules]\n" + string(id) + " = \"" + sev + "\"\n"
			c, ds := Parse(File, []byte(src))
			if len(ds) != 1 || !strings.Contains(ds[0].Message, "core rule") || ds[0].Pos.Line != 2 {
				t.Errorf("%s = %q: diagnostics %v, want one core-rule error on line 2", id, sev, ds)
			}
			if _, set := c.Rules[id]; set {
				t.Errorf("%s = %q: the setting was kept (%q)", id, sev, c.Rules[id])
			}
		}
	}
	for _, id := range []diag.RuleID{diag.ClaimUnbound, diag.LinkMissingPage, diag.EvidenceNumber, diag.TranslationClaims, diag.FigureStale} {
		if IsCore(id) {
			t.Errorf("%s is core; want it adjustable", id)
		}
		if _, ds := Parse(File, []byte("[rules]\n"+string(id)+" = \"off\"\n")); len(ds) != 0 {
			t.Errorf("%s = off: %v", id, ds)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil || len(c.Rules) != 0 {
		t.Fatalf("no evdoc.toml: %v, %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dir, File), []byte("[rules]\nnope = \"off\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	ds, ok := err.(diag.List)
	if !ok || len(ds) != 1 || ds[0].Pos.String() != "evdoc.toml:2:1" {
		t.Fatalf("unknown rule: %v", err)
	}
}

// FuzzParse holds that no input panics and every diagnostic lies inside
// the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte("[rules]\nclaim-mismatch = \"off\"\n"))
	f.Add([]byte("rules = { link-malformed = \"error\" }\n"))
	f.Add([]byte("rules.x = 1\n[[a.b]]\n"))
	f.Add([]byte("[rules]\n\"claim-\\u0041\" = '''\noff'''\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, ds := Parse(File, src)
		for _, d := range ds {
			if d.Pos.Offset < 0 || d.Pos.Offset > len(src) || !d.Pos.IsValid() {
				t.Fatalf("%v: position outside the file of %d bytes", d, len(src))
			}
		}
	})
}

// TestCoreRulesDocumented: the guide's paragraph on core rules names
// exactly CoreRules.
func TestCoreRulesDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/guide/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "The **core rules**")
	end := strings.Index(doc[max(start, 0):], "\n\n")
	if start < 0 || end < 0 {
		t.Fatal("docs/guide/rules.md has no paragraph on the core rules")
	}
	para := doc[start : start+end]
	before, _, _ := strings.Cut(para, "decide whether")
	for _, id := range CoreRules() {
		if !strings.Contains(before, "`"+string(id)+"`") {
			t.Errorf("the core rules paragraph does not list %s", id)
		}
	}
	if n := strings.Count(before, "`"); n != 2*len(CoreRules()) {
		t.Errorf("the core rules paragraph lists %d rules, CoreRules %d", n/2, len(CoreRules()))
	}
}
