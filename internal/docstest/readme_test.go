package docstest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const readme = "../../README.md"

// TestREADMEIsAFrontDoor holds README.md under 200 lines, every page
// under docs/ linked from it, and every file it links to present.
func TestREADMEIsAFrontDoor(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n >= 200 {
		t.Errorf("README.md has %d lines; keep it under 200 and move reference to docs/guide/", n)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(([^)#\s]+)(#[^)\s]*)?\)`).FindAllSubmatch(b, -1) {
		target := string(m[1])
		if strings.Contains(target, ":") { // a URL, or a claim (ev:) in a quickstart page
			continue
		}
		linked[filepath.ToSlash(filepath.Clean(target))] = true
		if _, err := os.Stat(filepath.Join("../..", target)); err != nil {
			t.Errorf("README.md links to %s: %v", target, err)
		}
	}
	err = filepath.WalkDir("../../docs", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, _ := filepath.Rel("../..", p)
		if !linked[filepath.ToSlash(rel)] {
			t.Errorf("README.md does not link to %s; add it to its Documentation list", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// step is one shell block of README's quickstart: the commands, the exit
// status they end with and, when README shows it, their standard output.
type step struct {
	code   string
	status int
	stdout *string
}

// quickstart returns the steps between README's quickstart markers.
func quickstart(t *testing.T) []step {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, "<!-- quickstart -->"), strings.Index(s, "<!-- /quickstart -->")
	if i < 0 || j < i {
		t.Fatal("README.md has no <!-- quickstart --> … <!-- /quickstart --> section")
	}
	var steps []step
	status := regexp.MustCompile(`# exit status (\d+)`)
	for _, m := range regexp.MustCompile("(?s)```(sh|text)\n(.*?)```").FindAllStringSubmatch(s[i:j], -1) {
		if m[1] == "text" {
			if len(steps) == 0 {
				t.Fatal("README's quickstart shows output before any command")
			}
			out := m[2]
			steps[len(steps)-1].stdout = &out
			continue
		}
		st := step{code: m[2]}
		if sm := status.FindStringSubmatch(m[2]); sm != nil {
			st.status = int(sm[1][0] - '0')
		}
		steps = append(steps, st)
	}
	if len(steps) < 5 {
		t.Fatalf("README's quickstart has %d shell blocks", len(steps))
	}
	return steps
}

// TestREADMEQuickstart runs README's quickstart as written, in a new
// directory, with the evdoc built from this tree on PATH: each block
// ends with the exit status it states (0 unless "# exit status N") and
// prints the output README shows under it; at the end the fixed pages
// are built.
func TestREADMEQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds evdoc and runs Hugo")
	}
	steps := quickstart(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	bin := t.TempDir()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(bin, "evdoc"), "../../cmd/evdoc").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	hugo := os.Getenv("EVDOC_HUGO")
	if hugo == "" {
		abs, err := filepath.Abs("../../tools/hugo")
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.CommandContext(ctx, "go", "-C", abs, "tool", "-n", "hugo").Output()
		if err != nil {
			t.Fatalf("go tool -n hugo: %v", err)
		}
		hugo = strings.TrimSpace(string(out))
	}
	dir := t.TempDir()
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "EVDOC_HUGO="+hugo,
		// the quickstart's git commit, on a machine with no git identity
		"GIT_AUTHOR_NAME=lab", "GIT_AUTHOR_EMAIL=lab@example.org", "GIT_COMMITTER_NAME=lab", "GIT_COMMITTER_EMAIL=lab@example.org")
	cwd := dir
	for i, st := range steps {
		cwdFile := filepath.Join(bin, "cwd")
		c := exec.CommandContext(ctx, "bash", "-c", "set -e\n"+st.code+"\npwd > "+cwdFile+"\n")
		c.Dir, c.Env = cwd, env
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		err := c.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != st.status {
			t.Fatalf("quickstart block %d exits %d, README says %d:\n%s\nstdout:\n%s\nstderr:\n%s", i+1, code, st.status, st.code, &stdout, &stderr)
		}
		if st.stdout != nil && stdout.String() != *st.stdout {
			t.Errorf("quickstart block %d prints:\n%s\nREADME shows:\n%s", i+1, &stdout, *st.stdout)
		}
		if code == 0 {
			b, err := os.ReadFile(cwdFile)
			if err != nil {
				t.Fatal(err)
			}
			cwd = strings.TrimSpace(string(b))
		}
	}
	for _, p := range []string{"content/ko/docs/first.md", "content/ja/docs/first.md", "public/docs/first/index.html", "public/ja/docs/first/index.html"} {
		b, err := os.ReadFile(filepath.Join(cwd, p))
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(b), "7.12ms") || strings.Contains(string(b), "7.21ms") {
			t.Errorf("%s after the quickstart does not quote the fixed 7.12ms", p)
		}
	}
}
