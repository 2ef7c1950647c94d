package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

func extract(t *testing.T, archive string) string { return txtartest.WriteFile(t, archive) }

func evdoc(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExitCodes(t *testing.T) {
	tests := []struct {
		archive string
		code    int
		stdout  string
	}{
		{"../../generator/checker/testdata/check/clean.txtar", 0, ""},
		{"../../generator/checker/testdata/check/mismatch.txtar", 1, "content/ko/docs/p.md:7:8: error: \"51.8%\" does not match"},
		{"../../generator/checker/testdata/check/unknown-ref.txtar", 1, "unknown evidence reference \"nope/x.y\""},
		{"../../generator/checker/testdata/check/malformed-evidence.txtar", 1, "evidence/bad/report.md:4:1: error: table delimiter row"},
	}
	for _, tt := range tests {
		dir := extract(t, tt.archive)
		code, stdout, stderr := evdoc("check", "--root", dir)
		if code != tt.code || !strings.Contains(stdout, tt.stdout) {
			t.Errorf("%s: exit %d, stdout:\n%s\nstderr: %s\nwant exit %d and %q", tt.archive, code, stdout, stderr, tt.code, tt.stdout)
		}
	}
	if code, _, stderr := evdoc("check", "--root", t.TempDir()); code != 2 || !strings.Contains(stderr, "hugo.toml") {
		t.Errorf("no hugo.toml: exit %d, %s", code, stderr)
	}
	if code, _, _ := evdoc("check", "--format=xml", "--root", "../.."); code != 2 {
		t.Errorf("bad --format: exit %d", code)
	}
	if code, _, _ := evdoc("check", "--no-such-flag"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
}

func TestCheckJSONPrintsEveryClaim(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/mismatch.txtar")
	code, stdout, _ := evdoc("check", "--format=json", "--root", dir)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var claims, diags int
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if d, ok := rec["diagnostic"].(map[string]any); ok {
			// the ko and ja pages of the archive also differ (translation
			// findings); count the claim judgements
			if rule, _ := d["rule"].(string); d["severity"] == "error" && !strings.HasPrefix(rule, "translation-") {
				diags++
			}
			continue
		}
		if cov, ok := rec["coverage"].(map[string]any); ok {
			if cov["page"] == "content/ko/docs/p.md" && (cov["bound"].(float64) != 3 || cov["measured"].(float64) != 3) {
				t.Errorf("coverage = %v", cov)
			}
			continue
		}
		if sum, ok := rec["summary"].(map[string]any); ok {
			if sum["claims"] != float64(5) {
				t.Errorf("summary = %v; want 5 claims", sum)
			}
			continue
		}
		claims++
		if rec["page"] == "content/ko/docs/p.md" && rec["literal"] == "51.8%" {
			ev := rec["evidence"].([]any)[0].(map[string]any)
			pos := ev["evidence"].(map[string]any)
			if rec["line"].(float64) != 7 || ev["value"] != "51.7" || pos["file"] != "evidence/d3/report.md" || pos["line"].(float64) != 5 || pos["column"].(float64) != 36 || rec["ok"] != false {
				t.Errorf("record = %v", rec)
			}
		}
	}
	if claims != 5 || diags != 4 {
		t.Errorf("claims = %d, error diagnostics = %d; want 5 and 4", claims, diags)
	}
}

func TestValues(t *testing.T) {
	code, stdout, stderr := evdoc("values", "--root", "../..", "evidence/dns-passthrough-tcp")
	if code != 0 || !strings.Contains(stdout, "dns-passthrough-tcp/d1.http.attempts") || !strings.Contains(stdout, "evidence/dns-passthrough-tcp/report.md:19:") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = evdoc("values", "--format=json", "--root", "../..", "evidence/dns-inflight-part2/result.txt")
	if code != 0 || !strings.Contains(stdout, `"key":"S1.TIME","value":"40.045811"`) {
		t.Errorf("exit %d\n%s", code, stdout)
	}
	if code, _, _ := evdoc("values", "--root", "../..", "evidence/nope"); code != 2 {
		t.Errorf("missing path: exit %d", code)
	}
	if code, stdout, _ := evdoc("values", "--root", "../..", "evidence/retry-istio-1.31/evidence.toml"); code != 0 || !strings.Contains(stdout, "retry-istio-1.31/retry.fast503.upstream_received") {
		t.Errorf("manifest path: exit %d\n%s", code, stdout)
	}
}

func TestFix(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/mismatch.txtar")
	page := filepath.Join(dir, "content", "ko", "docs", "p.md")
	before, _ := os.ReadFile(page)
	code, stdout, _ := evdoc("fix", "--dry-run", "--root", dir)
	if code != 1 || !strings.Contains(stdout, "-| A | [51.8%](ev:d3/d3.a.rate) |\n+| A | [51.7%](ev:d3/d3.a.rate) |") || !strings.Contains(stdout, "--- a/content/ko/docs/p.md") {
		t.Errorf("dry run: exit %d\n%s", code, stdout)
	}
	if after, _ := os.ReadFile(page); string(after) != string(before) {
		t.Error("--dry-run wrote the page")
	}
	code, stdout, stderr := evdoc("fix", "--root", dir)
	// The ja page keeps an arity error fix cannot resolve: exit 1.
	if code != 1 || !strings.Contains(stderr, "3 literal(s) rewritten") || !strings.Contains(stdout, "claim-arity") || strings.Contains(stdout, "claim-mismatch") {
		t.Errorf("fix: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	after, _ := os.ReadFile(page)
	want := strings.NewReplacer("[51.8%]", "[51.7%]", "0.22%]", "0.21%]").Replace(string(before))
	if string(after) != want {
		t.Errorf("fixed page:\n%s\nwant:\n%s", after, want)
	}
}

func TestApproxFlag(t *testing.T) {
	archive := "../../generator/checker/testdata/check/clean.txtar"
	dir := extract(t, archive)
	page := filepath.Join(dir, "content", "ko", "docs", "p.md")
	b, _ := os.ReadFile(page)
	// 약 52% against 51.72%: within 10%; 약 60% is not, but is within 20%.
	if err := os.WriteFile(page, []byte(strings.Replace(string(b), "[약 52%]", "[약 60%]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// the translation says the same
	jaPage := filepath.Join(dir, "content", "ja", "docs", "p.md")
	b, _ = os.ReadFile(jaPage)
	if err := os.WriteFile(jaPage, []byte(strings.Replace(string(b), "[約52%]", "[約60%]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := evdoc("check", "--root", dir); code != 1 {
		t.Errorf("default tolerance: exit %d", code)
	}
	if code, out, _ := evdoc("check", "--approx", "20%", "--root", dir); code != 0 {
		t.Errorf("--approx 20%%: exit %d\n%s", code, out)
	}
	if code, _, _ := evdoc("check", "--approx", "2", "--root", dir); code != 2 {
		t.Errorf("--approx 2: exit %d", code)
	}
}

// TestRuleSeverityConfig: evdoc.toml [rules] changes the severity of a
// rule's findings (a warning made an error fails check) or drops them, and
// an unknown rule id stops evdoc at its position.
func TestRuleSeverityConfig(t *testing.T) {
	const archive = "../../generator/checker/testdata/check/translation-claims.txtar"
	dir := extract(t, archive)
	code, stdout, _ := evdoc("check", "--root", dir)
	if code != 1 || !strings.Contains(stdout, "[translation-claims]") || !strings.Contains(stdout, ": error: ") {
		t.Fatalf("without evdoc.toml: exit %d\n%s", code, stdout)
	}
	tests := []struct {
		config string
		code   int
		stdout string // "" for no output
		stderr string
	}{
		{"[rules]\ntranslation-claims = \"warning\"\n", 0, ": warning: [", ""},
		{"[rules]\ntranslation-claims = \"off\"\n", 0, "", ""},
		{"[rules]\ntranslation-claim = \"off\"\n", 2, "", `evdoc.toml:2:1: error: unknown rule "translation-claim"`},
	}
	for _, tt := range tests {
		if err := os.WriteFile(filepath.Join(dir, "evdoc.toml"), []byte(tt.config), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := evdoc("check", "--root", dir)
		if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%q: exit %d, stdout:\n%s\nstderr: %s\nwant exit %d, %q, %q", tt.config, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
		if tt.stdout == "" && strings.Contains(stdout, "translation-claims") {
			t.Errorf("%q: finding not dropped:\n%s", tt.config, stdout)
		}
	}
}

func TestRulesCommand(t *testing.T) {
	code, stdout, _ := evdoc("rules")
	if code != 0 || !strings.Contains(stdout, "claim-mismatch") || !strings.Contains(stdout, "link-missing-page") {
		t.Errorf("rules: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = evdoc("rules", "--format=markdown")
	if code != 0 || !strings.HasPrefix(stdout, "| rule | default |") {
		t.Errorf("rules --format=markdown: exit %d\n%s", code, stdout)
	}
	if code, _, _ := evdoc("rules", "--format=xml"); code != 2 {
		t.Errorf("rules --format=xml: exit %d", code)
	}
}

func TestFixScale(t *testing.T) {
	dir := extract(t, "testdata/fix-scale.txtar")
	page := filepath.Join(dir, "content", "ko", "docs", "p.md")
	before, _ := os.ReadFile(page)
	code, stdout, stderr := evdoc("fix", "--root", dir)
	if code != 1 || !strings.Contains(stdout, "[fix-scale]") || !strings.Contains(stdout, `"1.2" → "1232"`) ||
		!strings.Contains(stdout, "1.2 s vs 1232 s: 10³× apart; is the raw value in ms?") {
		t.Errorf("fix: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "written in s, evidence is 0.0192 s = 19.2 ms; did you mean ms?") {
		t.Errorf("no power-of-1000 message:\n%s", stdout)
	}
	after, _ := os.ReadFile(page)
	// Only the ordinary stale number (40 → 41) is rewritten.
	if want := strings.Replace(string(before), "[40건]", "[41건]", 1); string(after) != want {
		t.Errorf("page after fix:\n%s\nwant:\n%s", after, want)
	}
	code, _, stderr = evdoc("fix", "--allow-scale", "--root", dir)
	after, _ = os.ReadFile(page)
	// The 10³× rewrite the raw-unit hint explains is applied; the
	// claim-unit mistake never is.
	if !strings.Contains(string(after), "[約1232秒]") || !strings.Contains(string(after), "[19.2s]") || code != 1 {
		t.Errorf("--allow-scale: exit %d\n%s\n%s", code, after, stderr)
	}
}

func TestStrict(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/translation-claims.txtar")
	if err := os.WriteFile(filepath.Join(dir, "evdoc.toml"), []byte("[rules]\ntranslation-claims = \"warning\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, checkOut, _ := evdoc("check", "--root", dir)
	if !strings.Contains(checkOut, ": warning: ") {
		t.Fatalf("fixture has no warning:\n%s", checkOut)
	}
	warning := checkOut[:strings.Index(checkOut, "\n")]
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"check"}, 0, ""},
		{[]string{"check", "--strict"}, 1, "--strict: 1 warning(s) fail the check"},
		// Not strict: the warning is printed and the build goes on to Hugo
		// (here /bin/false, so it fails with "cannot run").
		{[]string{"build", "--hugo", "/bin/false"}, 2, "hugo failed"},
		{[]string{"build", "--strict", "--hugo", "/bin/false"}, 1, "not built: 1 warning(s) under --strict"},
	}
	for _, tt := range tests {
		code, stdout, stderr := evdoc(append(tt.args, "--root", dir)...)
		if code != tt.code || !strings.Contains(stdout, warning) || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stdout:\n%s\nstderr: %s\nwant exit %d, %q on stdout, %q on stderr", tt.args, code, stdout, stderr, tt.code, warning, tt.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); err == nil {
		t.Error("a failed build wrote public/")
	}
}

// TestStrictReferenceSite is issue 13's "under --strict the reference
// site's warnings fail the build": the reference site is clean under
// --strict; a link to a page it does not have (a warning) leaves check
// at exit 0 but fails check --strict and build --strict, which builds
// nothing. A Hugo warning under --strict: TestBuildStrictHugoWarning.
func TestStrictReferenceSite(t *testing.T) {
	hugo := buildHugo(t)
	dir := sitetest.CopyProject(t, "glossary.toml")
	if code, out, errs := evdoc("check", "--strict", "--root", dir); code != 0 {
		t.Fatalf("reference site under --strict: exit %d\n%s%s", code, out, errs)
	}
	appendTo := func(rel, text string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(dir, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	ko, ja := "content/ko/docs/_index.md", "content/ja/docs/_index.md"
	appendTo(ko, "\n[없는 페이지](/docs/no-such-page/)\n")
	appendTo(ja, "\n[ないページ](/docs/no-such-page/)\n")
	if code, out, _ := evdoc("check", "--root", dir); code != 0 || !strings.Contains(out, "warning: ") || !strings.Contains(out, "[link-missing-page]") {
		t.Fatalf("check with a missing-page link: exit %d\n%s", code, out)
	}
	if code, _, errs := evdoc("check", "--strict", "--root", dir); code != 1 || !strings.Contains(errs, "--strict") {
		t.Errorf("check --strict: exit %d %s; want 1", code, errs)
	}
	if code, _, errs := evdoc("build", "--strict", "--hugo", hugo, "--root", dir); code != 1 || !strings.Contains(errs, "not built") {
		t.Errorf("build --strict: exit %d %s; want 1, not built", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); err == nil {
		t.Fatal("build --strict with warnings wrote public/")
	}
}

// TestBuildStrictHugoWarning: a Hugo warning (a template's warnf, here
// the project's own heading render hook, as a theme's deprecated
// template would warn) is shown by build and fails build --strict
// (Hugo's --panicOnWarning), which leaves public/ as the last build
// wrote it. The project is the scaffold init writes.
func TestBuildStrictHugoWarning(t *testing.T) {
	hugo := buildHugo(t)
	dir := t.TempDir()
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	for lang, heading := range map[string]string{"ko": "측정 환경", "ja": "測定環境"} {
		page, err := os.OpenFile(filepath.Join(dir, "content", lang, "docs", "example.md"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := page.WriteString("\n## " + heading + "\n"); err != nil {
			t.Fatal(err)
		}
		page.Close()
	}
	hook := filepath.Join(dir, "layouts", "_markup", "render-heading.html")
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte(`{{ warnf "lab theme: %s is deprecated" "oldParam" }}<h{{ .Level }} id="{{ .Anchor }}">{{ .Text }}</h{{ .Level }}>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := evdoc("build", "--hugo", hugo, "--root", dir); code != 0 || !strings.Contains(out+errs, "lab theme: oldParam is deprecated") {
		t.Fatalf("build with a Hugo warning: exit %d; want 0 with the warning shown\n%s%s", code, out, errs)
	}
	index := filepath.Join(dir, "public", "index.html")
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errs := evdoc("build", "--strict", "--hugo", hugo, "--root", dir); code == 0 || !strings.Contains(out+errs, "lab theme: oldParam is deprecated") {
		t.Errorf("build --strict with a Hugo warning: exit %d; want a failure naming it\n%s%s", code, out, errs)
	}
	if after, _ := os.ReadFile(index); string(after) != string(before) {
		t.Error("a failed build --strict changed public/")
	}
}

// TestCheckJSONClaimsInPageOrder: check --format=json writes the claims it
// spooled while judging in the order of a Checker's Results (pages in
// path order, then figure texts), equal to them, for every check archive.
func TestCheckJSONClaimsInPageOrder(t *testing.T) {
	archives, err := filepath.Glob("../../generator/checker/testdata/check/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no archives: %v", err)
	}
	for _, a := range archives {
		t.Run(filepath.Base(a), func(t *testing.T) {
			dir := extract(t, a)
			s, err := project.Load(dir)
			if err != nil {
				t.Skip("cannot load:", err)
			}
			var want bytes.Buffer
			if err := report.WriteClaims(&want, reportClaims(checker.NewChecker(s, check.DefaultOptions()).Results())); err != nil {
				t.Fatal(err)
			}
			_, stdout, _ := evdoc("check", "--format=json", "--root", dir)
			var got strings.Builder
			var summary []string
			for _, line := range strings.SplitAfter(stdout, "\n") {
				switch {
				case strings.HasPrefix(line, `{"summary":`):
					summary = append(summary, line)
				case !strings.HasPrefix(line, `{"diagnostic":`) && !strings.HasPrefix(line, `{"coverage":`):
					got.WriteString(line)
				}
			}
			if got.String() != want.String() {
				t.Errorf("claims written differ from the Checker's Results:\n got: %.1500s\nwant: %.1500s", got.String(), want.String())
			}
			// the last line is the one summary, counting the claims written
			claims, matched := 0, 0
			for _, line := range strings.Split(strings.TrimSpace(want.String()), "\n") {
				var c report.Claim
				if line == "" {
					continue
				}
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					t.Fatal(err)
				}
				claims++
				if c.OK {
					matched++
				}
			}
			var sum struct{ Summary report.Summary }
			if len(summary) != 1 || !strings.HasSuffix(stdout, summary[0]) || json.Unmarshal([]byte(summary[0]), &sum) != nil ||
				sum.Summary.Matched != matched || sum.Summary.Claims != claims || sum.Summary.Pages != len(s.Pages) {
				t.Errorf("summary lines %q; want one, last, with matched %d of %d claims in %d pages", summary, matched, claims, len(s.Pages))
			}
		})
	}
}
