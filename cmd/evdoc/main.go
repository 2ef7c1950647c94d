// Command evdoc checks the numbers quoted in a Hugo site against the raw
// lab evidence they come from, renders figures from that evidence, and
// builds the site with the pinned Hugo.
//
// Usage:
//
//	evdoc check [--format=text|json] [--root DIR]
//	evdoc build [--out public] [--root DIR]
//	evdoc serve [--port 1313] [--bind 127.0.0.1] [--strict] [--root DIR]
//	evdoc values [--format=text|json] [PATH...]
//
// Exit status: 0 clean, 1 findings (a mismatch, unknown reference,
// malformed evidence or page), 2 cannot run (no hugo.toml, bad flags,
// Hugo failed, another build or fix holds the project lock), 3 internal
// error (a panic: a bug in evdoc), 130/143 stopped by SIGINT/SIGTERM (the
// site and the pages are left as they were). exitStatuses is the table.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	evdocfiles "github.com/evdoc-lab/evdoc"
	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// exitError carries an exit status through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func main() {
	defer crash.Guard() // a panic: exit status crash.ExitStatus, not the runtime's 2
	ctx, stop := signalContext()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitStatus is one row of the exit status table (exitStatuses).
type exitStatus struct {
	code    string
	meaning string
}

// exitStatuses is every exit status evdoc gives, for docs/guide/commands.md
// (TestCommandsDoc writes the table from it).
func exitStatuses() []exitStatus {
	return []exitStatus{
		{"0", "clean: no error finding (with `--strict`, no warning either), or the command did what it was asked"},
		{"1", "findings: a number that does not match its evidence, an unknown reference, a malformed evidence file or page (each command's `--help` below says when it exits 1)"},
		{"2", "cannot run: no Hugo project, bad flags, a configuration naming a path outside the project or widening Hugo's security policy, an unwritable output, Hugo failed, another build or fix holds the project lock past `--lock-wait`"},
		{strconv.Itoa(crash.ExitStatus), "internal error: evdoc panicked (a bug; the message and stack are on standard error; please report them); never a verdict on the project"},
		{"130, 143", "stopped by SIGINT or SIGTERM (128 + the signal's number): the site and the pages are left as they were, and the run's temporary files are removed"},
	}
}

// run executes the CLI with args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		// Interrupted: whatever the command returned, the run did not
		// finish. A bare "context canceled" says nothing more.
		if err != nil && err.Error() != context.Canceled.Error() {
			fmt.Fprintln(stderr, "evdoc:", err)
		}
		fmt.Fprintf(stderr, "evdoc: %v; stopped\n", se)
		return se.exitCode()
	}
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "evdoc:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "evdoc:", err)
	return 2
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	var rootDir string
	opts := &globalOptions{check: check.DefaultOptions()}
	cmd := &cobra.Command{
		Use:           "evdoc",
		Example:       "  evdoc init && evdoc check && evdoc build\n  evdoc check --strict --format=github\n  evdoc build --root ~/lab-site --hugo /usr/local/bin/hugo",
		Short:         "Check quoted numbers against raw lab evidence and build the ko/ja site",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	opts.maxFileSize = sizeFlag(safefile.DefaultMaxSize)
	cmd.AddCommand(newCheckCmd(&rootDir, opts, stdout, stderr), newBuildCmd(&rootDir, opts, stdout, stderr), newValuesCmd(&rootDir, opts, stdout, stderr), newFixCmd(&rootDir, opts, stdout, stderr), newRulesCmd(stdout), newFiguresCmd(&rootDir, opts, stdout, stderr), newI18nCmd(&rootDir, stdout, stderr), newVersionCmd(stdout), newServeCmd(&rootDir, opts, stdout, stderr), newInitCmd(&rootDir, stdout), newDoctorCmd(&rootDir, opts, stdout, stderr), newNewCmd(&rootDir, opts, stdout, stderr), newImpactCmd(&rootDir, opts, stdout, stderr), newLSPCmd(&rootDir, opts, stderr))
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &exitError{2, err} })
	cmd.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		if !needsProject(c, args) || c.Flags().Changed("root") {
			return nil
		}
		dir, err := findProject(rootDir)
		if err != nil {
			return &exitError{2, err}
		}
		rootDir = dir
		return nil
	}
	return cmd
}

// needsProject reports whether command c (with its arguments) works on a
// Hugo project: all but init, version, rules, help and values given files.
func needsProject(c *cobra.Command, args []string) bool {
	switch c.Name() {
	case "init", "version", "rules", "help", "completion", "evdoc", "lsp":
		return false
	case "values":
		return len(args) == 0
	}
	return true
}

// findProject returns the project directory for a command run in dir
// without --root: dir when it holds a Hugo configuration, else the
// nearest parent that does (as git and Hugo look upwards), else an error
// naming where evdoc looked and what to do.
func findProject(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir, nil
	}
	for d := abs; ; {
		if hasHugoConfig(d) {
			if d == abs {
				return dir, nil
			}
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", fmt.Errorf("no Hugo project here: %s and its parent directories hold no Hugo configuration (%s, or a %s/_default directory); run evdoc in a project, name one with --root DIR, or make one with evdoc init", abs, strings.Join(hugoconf.RootConfigFiles, ", "), hugoconf.ConfigDir)
}

// hasHugoConfig reports whether dir holds a Hugo configuration file or
// configuration directory.
func hasHugoConfig(dir string) bool {
	for _, n := range hugoconf.RootConfigFiles {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && !fi.IsDir() {
			return true
		}
	}
	fi, err := os.Stat(filepath.Join(dir, hugoconf.ConfigDir, "_default"))
	return err == nil && fi.IsDir()
}

// globalOptions are the flags the commands that read evidence share. Each
// command registers only the flags it uses (addRootFlag, addLoadFlags,
// addJudgeFlags), so its --help lists no flag it ignores.
type globalOptions struct {
	check check.Options
	// maxFileSize bounds each evidence file (--max-file-size).
	maxFileSize sizeFlag
}

// addRootFlag registers --root on cmd, for cmd and its subcommands.
func addRootFlag(cmd *cobra.Command, root *string) {
	cmd.PersistentFlags().StringVar(root, "root", ".", "project root `DIR` (holds hugo.toml, content/, evidence/)")
}

// addLoadFlags registers the flags of a command that reads evidence files:
// --root and --max-file-size.
func (o *globalOptions) addLoadFlags(cmd *cobra.Command, root *string) {
	addRootFlag(cmd, root)
	cmd.Flags().Var(&o.maxFileSize, "max-file-size", "largest evidence file evdoc reads, a `SIZE` in B, KB, MB, GB, KiB, MiB or GiB; a larger one is an evidence-limit error")
}

// addJudgeFlags registers the flags of a command that judges claims:
// addLoadFlags' and --approx.
func (o *globalOptions) addJudgeFlags(cmd *cobra.Command, root *string) {
	o.addLoadFlags(cmd, root)
	cmd.Flags().Var(&approxFlag{&o.check.Approx}, "approx", "relative `TOLERANCE` of an approximate literal (~, 약, 約…), as a fraction (0.1) or percent (10%)")
}

// addVerboseFlag registers -v/--verbose: what the command prints besides
// its findings and its summary line (usage says what).
func addVerboseFlag(cmd *cobra.Command, v *bool, usage string) {
	cmd.Flags().BoolVarP(v, "verbose", "v", false, usage)
}

// load returns the options of project.LoadWith the flags ask for.
func (o *globalOptions) load() project.LoadOptions {
	// The component this evdoc writes, which a project's themes/evdoc
	// must be (rule site-component).
	comp, err := fs.Sub(evdocfiles.Files(), evdocfiles.ComponentDir)
	if err != nil {
		panic(err) // the embedded directory is always there
	}
	return project.LoadOptions{Evidence: evidence.Options{MaxFileSize: int64(o.maxFileSize)}, Component: comp, ComponentVersion: evdocVersion()}
}

// sizeFlag parses --max-file-size: "256MiB", "500MB", a byte count.
type sizeFlag int64

func (f *sizeFlag) String() string { return safefile.Size(int64(*f)) }

func (f *sizeFlag) Set(s string) error {
	n, err := safefile.ParseSize(s)
	if err != nil {
		return err
	}
	if n <= 0 {
		return fmt.Errorf("expected a size above zero")
	}
	*f = sizeFlag(n)
	return nil
}

func (f *sizeFlag) Type() string { return "size" }

// approxFlag parses --approx: "0.1" or "10%", between 0 and 1.
type approxFlag struct{ d *decimal.Decimal }

func (f *approxFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f *approxFlag) Set(s string) error {
	pct := strings.HasSuffix(s, "%")
	v, err := decimal.NewFromString(strings.TrimSuffix(s, "%"))
	if err != nil {
		return fmt.Errorf("expected a fraction such as 0.1 or a percentage such as 10%%")
	}
	if pct {
		v = v.Div(decimal.NewFromInt(100))
	}
	if v.IsNegative() || v.GreaterThan(decimal.NewFromInt(1)) {
		return fmt.Errorf("expected a tolerance between 0 and 1 (0%% to 100%%)")
	}
	*f.d = v
	return nil
}

func (f *approxFlag) Type() string { return "tolerance" }

// printDiags writes diagnostics in the text format (report.Write): one per
// line, with related positions as indented notes.
func printDiags(w io.Writer, ds diag.List) {
	_ = report.Write(w, "text", ds, nil)
}
