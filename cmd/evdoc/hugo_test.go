package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestPinnedHugoMatchesToolModule(t *testing.T) {
	b, err := os.ReadFile("../../tools/hugo/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/gohugoio/hugo (v\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("tools/hugo/go.mod requires no github.com/gohugoio/hugo")
	}
	if got := string(m[1]); got != pinnedHugoVersion {
		t.Errorf("tools/hugo pins %s, evdoc's pinnedHugoVersion is %s", got, pinnedHugoVersion)
	}
}

func TestFindHugo(t *testing.T) {
	tests := []struct {
		name       string
		flag       string
		env        string
		path       string // hugo on PATH ("" none)
		version    string // its `hugo version` output
		cached     bool   // the pinned build is already in the cache
		installErr error
		want       string // command joined by spaces; "CACHE" is the cache binary
		wantErr    string
		installs   bool
	}{
		{name: "flag wins", flag: "/opt/hugo", env: "/env/hugo", path: "/usr/bin/hugo", version: "hugo v0.165.0", want: "/opt/hugo"},
		{name: "env", env: "/env/hugo", path: "/usr/bin/hugo", version: "hugo v0.165.0", want: "/env/hugo"},
		{name: "path in range", path: "/usr/bin/hugo", version: "hugo v0.165.2-abc+extended linux/amd64 BuildDate=x", want: "/usr/bin/hugo"},
		{name: "path too old", path: "/usr/bin/hugo", version: "hugo v0.120.4 linux/amd64", wantErr: "hugo on PATH (/usr/bin/hugo) is v0.120.4; evdoc supports v0.160.0 to v0.165.x"},
		{name: "path oldest supported", path: "/usr/bin/hugo", version: "hugo v0.160.0+extended linux/amd64", want: "/usr/bin/hugo"},
		{name: "path between", path: "/usr/bin/hugo", version: "hugo v0.162.1 linux/amd64", want: "/usr/bin/hugo"},
		{name: "path before link positions", path: "/usr/bin/hugo", version: "hugo v0.159.2 linux/amd64", wantErr: "is v0.159.2; evdoc supports v0.160.0 to v0.165.x"},
		{name: "path too new", path: "/usr/bin/hugo", version: "hugo v0.170.0", wantErr: "is v0.170.0"},
		{name: "path no version", path: "/usr/bin/hugo", version: "garbage", wantErr: "gave no version"},
		{name: "pinned skips path", flag: "pinned", path: "/usr/bin/hugo", version: "hugo v0.120.4", cached: true, want: "CACHE"},
		{name: "env pinned", env: "pinned", path: "/usr/bin/hugo", version: "hugo v0.120.4", cached: true, want: "CACHE"},
		{name: "cached build", cached: true, want: "CACHE"},
		{name: "build on demand", want: "CACHE", installs: true},
		{name: "build fails", installErr: errors.New("exit status 1"), wantErr: "building Hugo v0.165.0: exit status 1; install Go 1.26+ or pass --hugo PATH", installs: true},
		{name: "flag not found", flag: "/missing/hugo", wantErr: "--hugo=/missing/hugo: not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			exe := filepath.Join(cache, "evdoc", "hugo", pinnedHugoVersion, "hugo")
			if tt.cached {
				if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(exe, nil, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var log bytes.Buffer
			installed := false
			env := hugoEnv{
				getenv: func(k string) string {
					if k == "EVDOC_HUGO" {
						return tt.env
					}
					return ""
				},
				lookPath: func(name string) (string, error) {
					switch {
					case name == "hugo" && tt.path != "":
						return tt.path, nil
					case strings.HasPrefix(name, "/missing"):
						return "", errors.New("not found")
					case name != "hugo":
						return name, nil
					}
					return "", errors.New("not found")
				},
				version:  func(context.Context, string) (string, error) { return tt.version, nil },
				cacheDir: func() (string, error) { return cache, nil },
				install: func(_ context.Context, pkg, dir string, _ io.Writer) error {
					installed = true
					if pkg != "github.com/gohugoio/hugo@"+pinnedHugoVersion {
						t.Errorf("install %s", pkg)
					}
					if tt.installErr != nil {
						return tt.installErr
					}
					if err := os.MkdirAll(dir, 0o755); err != nil {
						return err
					}
					return os.WriteFile(filepath.Join(dir, "hugo"), nil, 0o755)
				},
				log: &log,
			}
			got, err := findHugo(context.Background(), tt.flag, env)
			if installed != tt.installs {
				t.Errorf("installed = %v, want %v", installed, tt.installs)
			}
			if tt.installs && !strings.Contains(log.String(), "evdoc: building Hugo "+pinnedHugoVersion+" from the Go module proxy") {
				t.Errorf("no progress line: %q", log.String())
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "CACHE", exe)
			if g := strings.Join(got, " "); g != want {
				t.Errorf("got %q, want %q", g, want)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"version"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"evdoc ", "github.com/evdoc-lab/evdoc", "hugo " + pinnedHugoVersion + " pinned"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q lacks %q", out.String(), want)
		}
	}
}

func TestBuildHelpDocumentsHugoLookup(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"build", "--help"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"EVDOC_HUGO", "--hugo", "on PATH", "go install github.com/gohugoio/hugo@" + pinnedHugoVersion, "Examples:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("build --help lacks %q", want)
		}
	}
}

// TestEveryCommandHasExamples: each command's --help shows examples.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		if c.Example == "" && c.Runnable() {
			t.Errorf("%s: no Example in its --help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	var out bytes.Buffer
	walk(newRootCmd(&out, &out))
}

// TestBuildNeverRunsProjectToolModule: with no --hugo, no EVDOC_HUGO and
// no hugo on PATH, build runs evdoc's pinned Hugo from the user cache,
// never a tools/hugo tool module the checked repository ships (which go
// would compile and run: here a program that writes a marker).
func TestBuildNeverRunsProjectToolModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	marks := t.TempDir()
	planted := filepath.Join(marks, "planted-ran")
	files := map[string]string{
		"tools/hugo/go.mod":       "module example.com/planted\n\ngo 1.24\n\ntool example.com/planted/hugo\n",
		"tools/hugo/hugo/main.go": "package main\n\nimport \"os\"\n\nfunc main() {\n\tos.WriteFile(" + strconv.Quote(planted) + ", nil, 0o644)\n\tos.Exit(1)\n}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The pinned Hugo, already built in the user cache: a stand-in that
	// says it ran and fails.
	cache := t.TempDir()
	pinned := filepath.Join(marks, "pinned-ran")
	exe := filepath.Join(cache, "evdoc", "hugo", pinnedHugoVersion, "hugo")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n: > "+pinned+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("EVDOC_HUGO", "")
	t.Setenv("PATH", filepath.Dir(goBin)+string(os.PathListSeparator)+"/bin"+string(os.PathListSeparator)+"/usr/bin")
	if _, err := exec.LookPath("hugo"); err == nil {
		t.Skip("a hugo in /bin or /usr/bin")
	}
	code, _, stderr := evdoc("build", "--root", dir)
	if _, err := os.Stat(planted); err == nil {
		t.Fatalf("build compiled and ran the project's tools/hugo module (exit %d):\n%s", code, stderr)
	}
	if _, err := os.Stat(pinned); err != nil || code != 2 || !strings.Contains(stderr, "hugo failed") {
		t.Errorf("the pinned Hugo of the cache did not run (exit %d, %v):\n%s", code, err, stderr)
	}
}

// TestHugoGetsAllowListedEnvironment: build runs Hugo with the variables
// hugoconf.HugoEnvNames lists and evdoc's own HUGO_ settings: a secret of
// evdoc's environment, or a HUGO_ variable evdoc did not set, never
// reaches Hugo (where a template's getenv could print it).
func TestHugoGetsAllowListedEnvironment(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	dump := filepath.Join(t.TempDir(), "env")
	fake := filepath.Join(t.TempDir(), "hugo")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nenv > "+dump+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-k3y-55")
	t.Setenv("EVDOC_PROBE_SECRET", "s3cr3t-7d1e")
	t.Setenv("HUGO_PARAMS_TOKEN", "t0ken")
	t.Setenv("LC_ALL", "C.UTF-8")
	code, _, stderr := evdoc("build", "--hugo", fake, "--root", dir)
	b, err := os.ReadFile(dump)
	if err != nil || code != 2 {
		t.Fatalf("the fake Hugo did not run (exit %d, %v):\n%s", code, err, stderr)
	}
	env := string(b)
	for _, secret := range []string{"aws-k3y-55", "s3cr3t-7d1e", "t0ken"} {
		if strings.Contains(env, secret) {
			t.Errorf("Hugo's environment holds %q:\n%s", secret, env)
		}
	}
	for _, want := range []string{"PATH=", "LC_ALL=C.UTF-8", "HUGO_ENVIRONMENT=production", "HUGO_CACHEDIR="} {
		if !strings.Contains(env, want) {
			t.Errorf("Hugo's environment lacks %s:\n%s", want, env)
		}
	}
}

// TestEveryCommandRefusesConfigOutside: with a language's contentDir
// outside the project, every command that reads the project or writes
// into it stops (exit 2) at the key before it writes anything: the
// sibling project the path names is left as it was, and no evidence set
// or figure is written.
func TestEveryCommandRefusesConfigOutside(t *testing.T) {
	fortio, err := filepath.Abs("../../generator/figure/testdata/fortio/evidence/fortio-readme/result.json")
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	victim := filepath.Join(parent, "victim", "content", "ja")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(victim, "p.md")
	if err := os.WriteFile(page, []byte("---\ntitle: p\n---\n\n[41건](ev:d3/d3.a.failed)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	b, err := os.ReadFile(filepath.Join(dir, "hugo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(b), `contentDir = "content/ja"`, "contentDir = "+strconv.Quote(filepath.Join(parent, "victim", "content", "ja")), 1)
	if cfg == string(b) {
		t.Fatal("fixture has no ja contentDir")
	}
	if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check"}, {"fix"}, {"build", "--hugo", "/bin/false"}, {"figures"}, {"i18n", "status"}, {"i18n", "mark", "content/ko/docs/p.md"},
		{"new", "evidence", "x", "--from", fortio, "--origin", "raw", "--environment", "kind"},
	} {
		code, _, stderr := evdoc(append(args, "--root", dir)...)
		if code != 2 || !strings.Contains(stderr, "hugo.toml:") || !strings.Contains(stderr, "languages.ja.contentdir") || !strings.Contains(stderr, ", outside ") {
			t.Errorf("%v: exit %d, want 2 naming the key:\n%s", args, code, stderr)
		}
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "[41건]") {
		t.Errorf("the page outside the project was rewritten:\n%s", b)
	}
	for _, p := range []string{"evidence/x", "public", "assets/figures"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}

// TestHugoRangeTested: the oldest supported Hugo is the one CI's
// .ci/run builds generator/site/buildtest with, and --help names the
// range hugoSupported accepts.
func TestHugoRangeTested(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "HUGO_OLDEST="+oldestHugoVersion+"\n") {
		t.Errorf(".ci/run does not test HUGO_OLDEST=%s", oldestHugoVersion)
	}
	if !strings.Contains(hugoLookupHelp, "supported range "+hugoRange()) {
		t.Errorf("--help does not name the range %s:\n%s", hugoRange(), hugoLookupHelp)
	}
	o, _ := parseHugoVersion(oldestHugoVersion)
	if !hugoSupported(o) || hugoSupported([3]int{o[0], o[1] - 1, 99}) {
		t.Errorf("hugoSupported does not start the range at %s", oldestHugoVersion)
	}
}
