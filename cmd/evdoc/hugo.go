package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/spf13/cobra"
)

// modulePath is evdoc's Go module path: go install modulePath/cmd/evdoc@VERSION.
const modulePath = "github.com/evdoc-lab/evdoc"

// hugoModule is the Go module Hugo is built from.
const hugoModule = "github.com/gohugoio/hugo"

// pinnedHugoVersion is the Hugo release evdoc's layouts are built and tested
// with; tools/hugo/go.mod requires the same version (a test checks).
const pinnedHugoVersion = "v0.165.0"

// hugoLookupHelp documents findHugo for --help.
const hugoLookupHelp = `Hugo is found in this order:
  1. --hugo PATH, else the EVDOC_HUGO environment variable (a Hugo binary;
     the value "pinned" skips to step 3);
  2. a hugo on PATH whose version is in the supported range ` + "v0.160.0 to v0.165.x" + `
     (another version is an error naming it: pass --hugo, or --hugo=pinned);
  3. the pinned Hugo ` + pinnedHugoVersion + `, built once from the Go module proxy
     (go install ` + hugoModule + `@` + pinnedHugoVersion + `, checked against the Go
     checksum database) into the user cache directory, which takes a few
     minutes the first time (needs Go). The version is evdoc's own: nothing
     in the checked repository (a tools/hugo module, go.mod, go.work)
     chooses what is built or run.`

// hugoEnv is what findHugo consults; tests replace it.
type hugoEnv struct {
	getenv   func(string) string
	lookPath func(string) (string, error)
	// version runs bin version and returns its output.
	version func(ctx context.Context, bin string) (string, error)
	// cacheDir is the user cache directory (os.UserCacheDir).
	cacheDir func() (string, error)
	// install runs go install pkg with GOBIN=dir.
	install func(ctx context.Context, pkg, dir string, log io.Writer) error
	log     io.Writer
}

// osHugoEnv returns the hugoEnv of the running process; progress lines go to log.
func osHugoEnv(log io.Writer) hugoEnv {
	return hugoEnv{
		getenv:   os.Getenv,
		lookPath: exec.LookPath,
		version: func(ctx context.Context, bin string) (string, error) {
			out, err := exec.CommandContext(ctx, bin, "version").CombinedOutput()
			return string(out), err
		},
		cacheDir: os.UserCacheDir,
		install: func(ctx context.Context, pkg, dir string, log io.Writer) error {
			// -v names each package as it is built: installProgress
			// counts them for its progress lines.
			// Run in dir, not in the project: go reads the go.mod and
			// go.work of its working directory (a toolchain line
			// among them), and the project's are the repository's.
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			c := exec.CommandContext(ctx, "go", "install", "-v", pkg)
			c.Dir = dir
			c.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-buildvcs=false", "GOWORK=off")
			p := startInstallProgress(log, 15*time.Second)
			c.Stdout, c.Stderr = p, p
			err := c.Run()
			n, took := p.finish()
			if err == nil {
				fmt.Fprintf(log, "evdoc: built Hugo %s in %s (%d packages); later runs reuse it\n", pinnedHugoVersion, took.Round(time.Second), n)
			}
			return err
		},
		log: log,
	}
}

var hugoVersionRE = regexp.MustCompile(`\bv?(\d+)\.(\d+)\.(\d+)`)

// parseHugoVersion returns major, minor, patch from `hugo version` output
// ("hugo v0.165.0-… linux/amd64 BuildDate=…").
func parseHugoVersion(out string) (v [3]int, ok bool) {
	m := hugoVersionRE.FindStringSubmatch(out)
	if m == nil {
		return v, false
	}
	for i := range 3 {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

// oldestHugoVersion is the oldest Hugo release evdoc's component runs on
// and is tested with (CI runs the tests on it and on the pinned release):
// its claim render hook reads the link render hook context's .Position,
// which Hugo v0.160.0 added (earlier releases fail on it), and its
// templates use hugo.Data and hugo.Sites (v0.156.0) and the _partials,
// _shortcodes and _markup layout directories (v0.146.0).
const oldestHugoVersion = "v0.160.0"

// hugoRange names the supported range of Hugo versions: from
// oldestHugoVersion to the pinned release's minor series.
func hugoRange() string {
	p, _ := parseHugoVersion(pinnedHugoVersion)
	return fmt.Sprintf("%s to v%d.%d.x", oldestHugoVersion, p[0], p[1])
}

// hugoSupported reports whether v is in the supported range (hugoRange):
// not older than oldestHugoVersion, not newer than the pinned release's
// minor series (a later release is untested).
func hugoSupported(v [3]int) bool {
	o, _ := parseHugoVersion(oldestHugoVersion)
	p, _ := parseHugoVersion(pinnedHugoVersion)
	if v[0] != p[0] || v[1] > p[1] {
		return false
	}
	return v[1] > o[1] || v[1] == o[1] && v[2] >= o[2]
}

// findHugo returns the Hugo command build runs, in the order hugoLookupHelp
// documents. flag is --hugo ("" when not given). The project never
// decides what runs (see hugoLookupHelp's step 3).
func findHugo(ctx context.Context, flag string, env hugoEnv) ([]string, error) {
	bin, from := flag, "--hugo"
	if bin == "" {
		bin, from = env.getenv("EVDOC_HUGO"), "EVDOC_HUGO"
	}
	if bin != "" && bin != "pinned" {
		if _, err := env.lookPath(bin); err != nil {
			return nil, fmt.Errorf("%s=%s: %v; expected the path of a Hugo binary (or \"pinned\")", from, bin, err)
		}
		return []string{bin}, nil
	}
	if bin == "" {
		if p, err := env.lookPath("hugo"); err == nil {
			out, err := env.version(ctx, p)
			v, ok := parseHugoVersion(out)
			if err != nil || !ok {
				return nil, fmt.Errorf("hugo on PATH (%s): `hugo version` gave no version (%v); pass --hugo PATH or --hugo=pinned", p, err)
			}
			if !hugoSupported(v) {
				return nil, fmt.Errorf("hugo on PATH (%s) is v%d.%d.%d; evdoc supports %s (pinned %s): install one of those, pass --hugo PATH, or --hugo=pinned to build the pinned Hugo", p, v[0], v[1], v[2], hugoRange(), pinnedHugoVersion)
			}
			return []string{p}, nil
		}
	}
	// Not the project's tools/hugo tool module, nor anything else of
	// the project: the repository is untrusted, and go would compile
	// and run whatever program that module names.
	cache, err := env.cacheDir()
	if err != nil {
		return nil, fmt.Errorf("no Hugo: none on PATH and no user cache directory to build the pinned one in (%v); pass --hugo PATH", err)
	}
	dir := filepath.Join(cache, "evdoc", "hugo", pinnedHugoVersion)
	exe := filepath.Join(dir, "hugo")
	if _, err := os.Stat(exe); err == nil {
		return []string{exe}, nil
	}
	fmt.Fprintf(env.log, "evdoc: building Hugo %s from the Go module proxy into %s (first use only; takes a few minutes; a Hugo %s on PATH, or --hugo PATH, skips this)\n", pinnedHugoVersion, dir, hugoRange())
	if err := env.install(ctx, hugoModule+"@"+pinnedHugoVersion, dir, env.log); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("building Hugo %s: %v; install Go 1.26+ or pass --hugo PATH", pinnedHugoVersion, err)
	}
	if _, err := os.Stat(exe); err != nil {
		return nil, fmt.Errorf("building Hugo %s: go install wrote no %s", pinnedHugoVersion, exe)
	}
	return []string{exe}, nil
}

// evdocVersion names the running binary: a tag such as v0.3.0 when
// installed with go install …@version, "(devel)" and the commit when
// built from a checkout (buildID.String).
func evdocVersion() string { return readBuildID().String() }

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print evdoc's module version and the Hugo version it pins",
		Example: "  evdoc version\n" +
			"  go install ./cmd/evdoc && evdoc version    # in a clone of evdoc (the module proxy does not serve it yet)",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(stdout, "evdoc %s (%s)\nhugo %s pinned (supported on PATH: %s)\n", evdocVersion(), modulePath, pinnedHugoVersion, hugoRange())
			return nil
		},
	}
}

// errNoHugo wraps a findHugo failure as "cannot run".
func errNoHugo(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &exitError{2, err}
}
