package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	evdocfiles "github.com/evdoc-lab/evdoc"
)

// workflowPath is the workflow evdoc init writes, in the embedded scaffold.
const workflowPath = "scaffold/.github/workflows/evdoc.yml"

func readWorkflow(t *testing.T) []byte {
	t.Helper()
	b, err := evdocfiles.Files().ReadFile(workflowPath)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWorkflowActionlint: the workflow init writes passes actionlint.
// .ci/run installs actionlint (pinned), so under CI=true it never skips.
func TestWorkflowActionlint(t *testing.T) {
	bin, err := exec.LookPath("actionlint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("actionlint is not on PATH; .ci/run installs it")
		}
		t.Skip("actionlint is not on PATH (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12)")
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows", "evdoc.yml")
	if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wf, readWorkflow(t), 0o644); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin, "-no-color", wf)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

// workflowStep is one step of a job.
type workflowStep struct {
	Name            string            `yaml:"name"`
	Uses            string            `yaml:"uses"`
	Run             string            `yaml:"run"`
	If              string            `yaml:"if"`
	ContinueOnError bool              `yaml:"continue-on-error"`
	With            map[string]string `yaml:"with"`
}

// workflow is the part of a GitHub Actions workflow the order test reads.
type workflow struct {
	On          map[string]any `yaml:"on"`
	Concurrency struct {
		Group string `yaml:"group"`
	} `yaml:"concurrency"`
	Jobs map[string]struct {
		Needs       any               `yaml:"needs"`
		If          string            `yaml:"if"`
		Permissions map[string]string `yaml:"permissions"`
		Steps       []workflowStep    `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestWorkflowOrder: in the workflow init writes, evdoc is installed
// without the module proxy, Go's and Hugo's caches are restored before
// the build, the SARIF upload cannot fail the job, and the Pages deploy
// runs only on the default branch after a strict build.
func TestWorkflowOrder(t *testing.T) {
	var wf workflow
	if err := yaml.Unmarshal(readWorkflow(t), &wf); err != nil {
		t.Fatal(err)
	}
	build, ok := wf.Jobs["build"]
	if !ok {
		t.Fatal("no build job")
	}
	at := func(match func(i int) bool, what string) int {
		t.Helper()
		for i := range build.Steps {
			if match(i) {
				return i
			}
		}
		t.Fatalf("build job: no step %s", what)
		return -1
	}
	uses := func(action string) func(int) bool {
		return func(i int) bool { return strings.HasPrefix(build.Steps[i].Uses, action+"@") }
	}
	runs := func(cmd string) func(int) bool {
		return func(i int) bool { return strings.Contains(build.Steps[i].Run, cmd) }
	}
	setupGo := at(uses("actions/setup-go"), "actions/setup-go")
	hugoCache := at(func(i int) bool {
		return strings.HasPrefix(build.Steps[i].Uses, "actions/cache@") && strings.Contains(build.Steps[i].With["path"], ".cache/evdoc")
	}, "caching ~/.cache/evdoc (the pinned Hugo)")
	install := at(runs("install ./cmd/evdoc"), "installing evdoc from its source")
	check := at(runs("evdoc check --strict"), "evdoc check --strict")
	sarif := at(uses("github/codeql-action/upload-sarif"), "uploading SARIF")
	strictBuild := at(runs("evdoc build --strict"), "evdoc build --strict")
	impactStep := at(runs("evdoc impact --base"), "evdoc impact on pull requests")
	upload := at(uses("actions/upload-pages-artifact"), "uploading the Pages artifact")
	for _, o := range []struct {
		before, after int
		what          string
	}{
		{setupGo, install, "setup-go (Go's caches) before installing evdoc"},
		{hugoCache, strictBuild, "Hugo's cache before the build"},
		{install, check, "install before check"},
		{check, strictBuild, "check before build"},
		{install, impactStep, "install before impact"},
		{strictBuild, upload, "the strict build before the Pages artifact"},
	} {
		if o.before >= o.after {
			t.Errorf("build job: want %s (steps %d, %d)", o.what, o.before, o.after)
		}
	}
	if build.Steps[setupGo].With["cache-dependency-path"] == "" {
		t.Error("setup-go has no cache-dependency-path: it would look for a go.sum the site does not have")
	}
	for _, s := range build.Steps {
		if strings.Contains(s.Run, "@latest") {
			t.Errorf("step %q installs with @latest, which the module proxy does not serve", s.Name)
		}
	}
	if !build.Steps[sarif].ContinueOnError || !strings.Contains(build.Steps[sarif].If, "head.repo.full_name") {
		t.Error("the SARIF upload must not fail the job where code scanning is unavailable (continue-on-error, skipped on fork pull requests)")
	}
	if st := build.Steps[impactStep]; !strings.Contains(st.If, "pull_request") || !strings.Contains(st.Run, "GITHUB_STEP_SUMMARY") || strings.Contains(st.Run, "${{") {
		t.Errorf("the impact step must run on pull requests into the job summary, with the base branch passed through env (no expression in run): %+v", st)
	}
	if build.Permissions["security-events"] != "write" {
		t.Error("the build job cannot upload SARIF without security-events: write")
	}
	deploy, ok := wf.Jobs["deploy"]
	if !ok {
		t.Fatal("no deploy job")
	}
	if deploy.Needs != "build" {
		t.Errorf("deploy needs %v, want build", deploy.Needs)
	}
	for _, cond := range []string{deploy.If, build.Steps[upload].If} {
		if !strings.Contains(cond, "default_branch") || !strings.Contains(cond, "pull_request") {
			t.Errorf("Pages artifact or deploy not gated on a push to the default branch: if %q", cond)
		}
	}
	if !slices.ContainsFunc(deploy.Steps, func(s workflowStep) bool { return strings.HasPrefix(s.Uses, "actions/deploy-pages@") }) {
		t.Error("deploy job does not run actions/deploy-pages")
	}
	if deploy.Permissions["pages"] != "write" || deploy.Permissions["id-token"] != "write" {
		t.Errorf("deploy permissions %v, want pages and id-token write", deploy.Permissions)
	}
	if wf.Concurrency.Group == "" {
		t.Error("no concurrency group: a branch could run twice at once")
	}
	if _, ok := wf.On["pull_request"]; !ok {
		t.Error("the workflow does not run on pull requests")
	}
}
