package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestSARIFRulesFromCatalogue holds that SARIF's rules[] carry the
// catalogue's description, help, URL and default level for every rule a
// result names (claim-syntax used to be described as a mismatch).
func TestSARIFRulesFromCatalogue(t *testing.T) {
	ds := diag.List{
		{Pos: diag.Position{File: "p.md", Line: 1, Column: 1}, Severity: diag.Error, Rule: diag.ClaimSyntax, Message: "m"},
		{Pos: diag.Position{File: "p.md", Line: 2, Column: 1}, Severity: diag.Warning, Rule: diag.LinkMissingPage, Message: "n"},
		{Pos: diag.Position{File: "p.md", Line: 3, Column: 1}, Severity: diag.Error, Rule: diag.ClaimSyntax, Message: "o"},
		{Pos: diag.Position{File: "p.md", Line: 4, Column: 1}, Severity: diag.Warning, Rule: diag.ClaimNumberWord, Message: "p"},
	}
	var b bytes.Buffer
	if err := Write(&b, "sarif", ds, nil); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct{ Text string }
						Help             struct{ Text string }
						HelpURI          string `json:"helpUri"`
						Default          struct {
							Level   string `json:"level"`
							Enabled *bool  `json:"enabled"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	rules := doc.Runs[0].Tool.Driver.Rules
	if len(rules) != 3 {
		t.Fatalf("rules = %+v; want one per distinct rule", rules)
	}
	// A rule that is off by default (reported because evdoc.toml turned it
	// on) is described as disabled by default.
	if d := rules[2].Default; rules[2].ID != string(diag.ClaimNumberWord) || d.Level != "none" || d.Enabled == nil || *d.Enabled {
		t.Errorf("default-off rule = %+v", rules[2])
	}
	for i, id := range []diag.RuleID{diag.ClaimSyntax, diag.LinkMissingPage} {
		want, _ := diag.LookupRule(id)
		got := rules[i]
		if got.ID != string(id) || got.ShortDescription.Text != want.Doc || got.Help.Text != want.Help ||
			got.HelpURI != want.URL() || got.Default.Level != string(want.Severity) {
			t.Errorf("rule %d = %+v, want %+v", i, got, want)
		}
	}
}

func TestWriteRules(t *testing.T) {
	rules := []diag.Rule{
		{ID: "claim-x", Severity: diag.Error, Doc: "Finds x | y.", Help: "Fix x."},
		{ID: "link-long-name", Severity: diag.Warning, Doc: "Finds z.", Help: "Fix z."},
	}
	tests := []struct{ format, want string }{
		{"text", "claim-x         error    Finds x | y.\nlink-long-name  warning  Finds z.\n"},
		{"markdown", "| rule | default | finds | to resolve |\n|---|---|---|---|\n" +
			"| <a name=\"rule-claim-x\"></a>`claim-x` | error | Finds x \\| y. | Fix x. |\n" +
			"| <a name=\"rule-link-long-name\"></a>`link-long-name` | warning | Finds z. | Fix z. |\n"},
		{"json", `{"id":"claim-x","severity":"error","description":"Finds x | y.","help":"Fix x.","url":"` + diag.DocsURL + `#rule-claim-x"}` + "\n" +
			`{"id":"link-long-name","severity":"warning","description":"Finds z.","help":"Fix z.","url":"` + diag.DocsURL + `#rule-link-long-name"}` + "\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteRules(&b, tt.format, rules); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.format, b.String(), tt.want)
		}
	}
	if err := WriteRules(&bytes.Buffer{}, "xml", rules); err == nil {
		t.Error("unknown format accepted")
	}
}

// Markers around the generated rule table of docs/guide/rules.md.
const (
	tableBegin = "<!-- BEGIN RULES: generated from generator/diag/rules.go by `go test ./generator/report -update`; do not edit -->\n"
	tableEnd   = "<!-- END RULES -->\n"
)

// TestRuleTableDoc holds that the rule table of docs/guide/rules.md is the
// catalogue (`evdoc rules --format=markdown`); -update rewrites it.
func TestRuleTableDoc(t *testing.T) {
	const readme = "../../docs/guide/rules.md"
	src, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no rule table between %q and %q", readme, tableBegin, tableEnd)
	}
	var b strings.Builder
	if err := WriteRules(&b, "markdown", diag.Catalogue()); err != nil {
		t.Fatal(err)
	}
	want := s[:i] + tableBegin + b.String() + s[j:]
	if want == s {
		return
	}
	if txtartest.Updating() {
		if err := os.WriteFile(readme, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the rule table differs from the catalogue; run go test ./generator/report -update", readme)
}
