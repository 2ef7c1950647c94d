package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// sharedCasesEnv names the directory of the shared regression cases
// (.ci/run sets it to ../shared/cases of the clone). When it is set the
// directory must hold cases: CI cannot pass by finding none.
const sharedCasesEnv = "EVDOC_SHARED_CASES"

// sharedCaseDirs returns the directories of the shared cases whose txtar
// archives TestSharedCases runs, relative to the shared cases directory.
func sharedCaseDirs() []string { return []string{".", "s3", "s4"} }

// sharedCasesGolden is the directory of the suite's expected outputs: one
// file ID.want per case (ID is the archive's path under the shared cases
// directory without ".txtar", e.g. s4/63-vegeta-json-and-hist).
const sharedCasesGolden = "testdata/sharedcases"

// openSharedCases lists the cases whose output today is not yet the right
// verdict their header states (issue 31), with what is still wrong.
// TestSharedCases runs them and logs their output but compares it with
// nothing, and they have no golden file. When a change makes a case
// right, remove its row, run
//
//	EVDOC_SHARED_CASES=../shared/cases go test ./cmd/evdoc -run TestSharedCases -update
//
// and check the new golden against the case's header before committing.
func openSharedCases() map[string]string {
	return map[string]string{}
}

// sharedCaseCommands gives the commands of cases whose "Run:" line is
// prose rather than commands.
func sharedCaseCommands() map[string][]string {
	return map[string][]string{
		// "evdoc check (exit 0); evdoc check --format=json shows ...;
		// then write [142h37m] and run evdoc fix --dry-run": the JSON
		// output is the text output's findings again, and fix --dry-run
		// on the page as written shows what fix would write instead of
		// the two wrong durations.
		"s3/52-go-duration-claim-truncated": {"evdoc check", "evdoc fix --dry-run"},
		// repro.sh removes the line naming css/site.css from the
		// layouts/baseof.html evdoc init writes; today that line is in a
		// template comment (the stylesheet comes from the evdoc/head.html
		// partial), so the script breaks the comment and Hugo fails on it
		// before the case's point. These commands make the theme the case
		// describes, one that links no stylesheet of evdoc's.
		"s3/n3-theme-without-evdoc-css": {"evdoc init --root site >/dev/null", `sed -i /evdoc\/head.html/d site/layouts/baseof.html`, "evdoc build --root site"},
	}
}

// TestSharedCases is the regression suite of the shared cases
// (../shared/cases/*.txtar, s3/*.txtar and s4/*.txtar): each archive is a
// small project whose header names the commands to run ("Run: evdoc
// check; evdoc values evidence/X"; `evdoc check` when it names none). The
// test writes the project to a temporary directory, runs each command
// there with the test binary as evdoc (a script such as repro.sh finds it
// on PATH as evdoc), and compares every command's exit status, standard
// output and standard error with testdata/sharedcases/ID.want, which
// holds the right verdict: a case fixed once stays fixed. Cases that
// build with Hugo run when the pinned Hugo is available (EVDOC_HUGO, else
// tools/hugo) and not under -short. The cases whose output is not yet
// right are in openSharedCases.
func TestSharedCases(t *testing.T) {
	dir := sharedCasesDir(t)
	cases := sharedCaseFiles(t, dir)
	open := openSharedCases()
	for id := range open {
		if _, ok := cases[id]; !ok {
			t.Errorf("openSharedCases names %s, which is not a case under %s", id, dir)
		}
	}
	for id := range sharedCaseCommands() {
		if _, ok := cases[id]; !ok {
			t.Errorf("sharedCaseCommands names %s, which is not a case under %s", id, dir)
		}
	}
	checkSharedGoldens(t, cases, open)

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A directory holding "evdoc", the test binary running evdoc's main,
	// for the scripts of the cases.
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\n%s=1 exec '%s' \"$@\"\n", asMainEnv, self)
	if err := os.WriteFile(filepath.Join(bin, "evdoc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	golden, err := filepath.Abs(sharedCasesGolden) // in-process cases run in their own directory
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(cases))
	for id := range cases {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	archives := map[string]*txtar.Archive{}
	commands := map[string][]string{}
	for _, id := range ids {
		ar, err := txtar.ParseFile(cases[id])
		if err != nil {
			t.Fatal(err)
		}
		cmds := sharedCaseCommands()[id]
		if cmds == nil {
			cmds = runLine(string(ar.Comment))
		}
		archives[id], commands[id] = ar, cmds
	}
	inProcess := inProcessCases(ids, archives, commands)
	// The cases run in this process first, one at a time (each in its
	// own working directory), then the others, two processes at a time.
	for _, id := range ids {
		if !inProcess[id] {
			continue
		}
		t.Run(id, func(t *testing.T) {
			work := txtartest.Write(t, archives[id])
			got := runSharedCaseInProcess(t, work, self, commands[id])
			compareSharedCase(t, id, got, open, golden)
		})
	}
	for _, id := range ids {
		if inProcess[id] {
			continue
		}
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			ar, cmds := archives[id], commands[id]
			env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), quickExit())
			hugo := ""
			if needsHugo(ar, cmds) {
				hugo = buildHugo(t)
				env = append(env, "EVDOC_HUGO="+hugo)
			}
			work := txtartest.Write(t, ar)
			got := runSharedCase(t, work, self, hugo, env, cmds)
			compareSharedCase(t, id, got, open, golden)
		})
	}
}

// inProcessVerbs are the evdoc commands a shared case may run in the test
// process (run, evdoc's main without os.Exit) instead of a process of its
// own: they read the project and print, and start no other program.
func inProcessVerbs() []string { return []string{"check", "values", "fix"} }

// inProcessCases returns the cases TestSharedCases runs in its own
// process: those whose every command is an evdoc command of
// inProcessVerbs, keeping its standard output, and that need no Hugo.
// Each such command costs a process about 0.3 s of CPU time under -race
// before it starts its work (the race runtime and the packages' init,
// chroma's lexer registry most of it), which was most of the test's time.
// For each verb the first such case (in ID order) that runs it is left
// to a process, so each verb's output through a process, main's exit
// status included, is still compared with a golden.
func inProcessCases(ids []string, archives map[string]*txtar.Archive, commands map[string][]string) map[string]bool {
	in := map[string]bool{}
	byProcess := map[string]bool{}
	for _, id := range ids {
		if needsHugo(archives[id], commands[id]) {
			continue
		}
		var verbs []string
		eligible := true
		for _, c := range commands[id] {
			f := strings.Fields(c)
			if len(f) < 2 || f[0] != "evdoc" || !slices.Contains(inProcessVerbs(), f[1]) || f[len(f)-1] == ">/dev/null" {
				eligible = false
				break
			}
			verbs = append(verbs, f[1])
		}
		if !eligible {
			continue
		}
		first := false
		for _, v := range verbs {
			if !byProcess[v] {
				byProcess[v], first = true, true
			}
		}
		in[id] = !first
	}
	return in
}

// runSharedCaseInProcess runs cmds (evdoc commands of inProcessVerbs) as
// runSharedCase does, each through run in this process with work as the
// working directory, and returns the same normalised output.
func runSharedCaseInProcess(t *testing.T, work, self string, cmds []string) []byte {
	t.Helper()
	t.Chdir(work)
	var out bytes.Buffer
	for _, c := range cmds {
		var stdout, stderr bytes.Buffer
		code := func() int {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s panicked: %v\n%s", c, r, debug.Stack())
				}
			}()
			return run(context.Background(), strings.Fields(c)[1:], &stdout, &stderr)
		}()
		writeCaseCommand(&out, c, stdout.Bytes(), stderr.Bytes(), code)
	}
	return normaliseCaseOutput(out.Bytes(), work, self, "")
}

// compareSharedCase compares a case's output with its golden under
// goldenDir (or writes it under -update); an open case's output is
// logged.
func compareSharedCase(t *testing.T, id string, got []byte, open map[string]string, goldenDir string) {
	t.Helper()
	if reason, ok := open[id]; ok {
		t.Logf("open (issue 31), not compared: %s\n%s", reason, got)
		return
	}
	golden := filepath.Join(goldenDir, filepath.FromSlash(id)+".want")
	if txtartest.Updating() {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v: run the test with -update and check the output against the case's header, or list the case in openSharedCases:\n%s", err, got)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (the case's right verdict; -update rewrites it after a change meant to alter it):\n%s", id, filepath.Join(sharedCasesGolden, filepath.FromSlash(id)+".want"), lineDiff(string(want), string(got)))
	}
}

// sharedCasesDir returns the shared cases directory: $EVDOC_SHARED_CASES,
// else ../shared/cases beside the module root. Without the variable and
// the directory the test is skipped; with the variable set, a missing
// directory fails it.
func sharedCasesDir(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv(sharedCasesEnv); dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Fatalf("%s=%s: not a directory (%v)", sharedCasesEnv, dir, err)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	dir := filepath.Join(filepath.Dir(sitetest.Root(t)), "shared", "cases")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Skipf("no shared cases at %s (set %s to run them)", dir, sharedCasesEnv)
	}
	return dir
}

// sharedCaseFiles returns the archives of dir's case directories by case
// ID. It fails the test when there are none.
func sharedCaseFiles(t testing.TB, dir string) map[string]string {
	t.Helper()
	cases := map[string]string{}
	for _, sub := range sharedCaseDirs() {
		files, err := filepath.Glob(filepath.Join(dir, sub, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			cases[caseID(sub, strings.TrimSuffix(filepath.Base(f), ".txtar"))] = f
		}
	}
	if len(cases) == 0 {
		t.Fatalf("no txtar cases in %s (nor its %s)", dir, strings.Join(sharedCaseDirs()[1:], ", "))
	}
	return cases
}

// caseID joins a case directory and a name into a case ID.
func caseID(sub, name string) string {
	if sub == "." {
		return name
	}
	return sub + "/" + name
}

// checkSharedGoldens fails on a golden file of no case or of an open
// case: each golden holds a right verdict that the test compares.
func checkSharedGoldens(t *testing.T, cases, open map[string]string) {
	t.Helper()
	err := filepath.WalkDir(sharedCasesGolden, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(sharedCasesGolden, p)
		id := strings.TrimSuffix(filepath.ToSlash(rel), ".want")
		switch _, isCase := cases[id]; {
		case !isCase:
			t.Errorf("%s is the golden of no shared case: remove it", p)
		case open[id] != "":
			t.Errorf("%s is the golden of an open case (openSharedCases): remove the file, or the row once the output is right", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runRE finds a case header's "Run:" line ("Run (evdoc on PATH): sh
// repro.sh" too).
var runRE = regexp.MustCompile(`Run(?: \([^)\n]*\))?:([^\n]*)`)

// runLine returns the commands a case header's "Run:" line names: its
// ";"-separated parts that start with "evdoc" or are "sh repro.sh", each
// cut before a remark (" (", ". ", " shows"). With no such line the
// command is `evdoc check`.
func runLine(header string) []string {
	m := runRE.FindStringSubmatch(header)
	if m == nil {
		return []string{"evdoc check"}
	}
	var cmds []string
	for _, part := range strings.Split(m[1], ";") {
		for _, sep := range []string{". ", " (", " shows"} {
			part, _, _ = strings.Cut(part, sep)
		}
		part = strings.TrimSuffix(strings.TrimSpace(part), ".")
		if part == "evdoc" || strings.HasPrefix(part, "evdoc ") || strings.HasPrefix(part, "sh ") {
			cmds = append(cmds, strings.Join(strings.Fields(part), " "))
		}
	}
	if len(cmds) == 0 {
		return []string{"evdoc check"}
	}
	return cmds
}

// needsHugo reports whether a case builds with Hugo: a command is `evdoc
// build`, or a script it runs builds or runs $EVDOC_HUGO.
func needsHugo(ar *txtar.Archive, cmds []string) bool {
	for _, c := range cmds {
		if strings.HasPrefix(c, "evdoc build") {
			return true
		}
		if script, ok := strings.CutPrefix(c, "sh "); ok {
			for _, f := range ar.Files {
				if f.Name == script && (bytes.Contains(f.Data, []byte("evdoc build")) || bytes.Contains(f.Data, []byte("EVDOC_HUGO"))) {
					return true
				}
			}
		}
	}
	return false
}

// runSharedCase runs cmds in work, one after the other, and returns what
// each printed: "$ CMD", its standard output, its standard error with
// each line prefixed "stderr: ", and "exit N", normalised
// (normaliseCaseOutput). A command is split at spaces; "evdoc ARGS" runs
// the test binary as evdoc, any other its program from PATH; a last word
// ">/dev/null" leaves its standard output out.
func runSharedCase(t *testing.T, work, self, hugo string, env, cmds []string) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, c := range cmds {
		args := strings.Fields(c)
		quiet := args[len(args)-1] == ">/dev/null"
		if quiet {
			args = args[:len(args)-1]
		}
		var cmd *exec.Cmd
		if args[0] == "evdoc" {
			cmd = exec.Command(self, args[1:]...)
			cmd.Env = append(slices.Clip(env), asMainEnv+"=1")
		} else {
			cmd = exec.Command(args[0], args[1:]...)
			cmd.Env = env
		}
		cmd.Dir = work
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s: %v", c, err)
			}
			code = ee.ExitCode()
		}
		if quiet {
			stdout.Reset()
		}
		writeCaseCommand(&out, c, stdout.Bytes(), stderr.Bytes(), code)
	}
	return normaliseCaseOutput(out.Bytes(), work, self, hugo)
}

// writeCaseCommand writes one command's record of a case's output: "$
// CMD", its standard output, its standard error with each line prefixed
// "stderr: ", and "exit N".
func writeCaseCommand(out *bytes.Buffer, c string, stdout, stderr []byte, code int) {
	fmt.Fprintf(out, "$ %s\n", c)
	out.Write(stdout)
	if len(stdout) > 0 && !bytes.HasSuffix(stdout, []byte("\n")) {
		out.WriteString("\n")
	}
	for _, l := range strings.SplitAfter(string(stderr), "\n") {
		if l != "" {
			out.WriteString("stderr: " + l)
		}
	}
	if len(stderr) > 0 && !bytes.HasSuffix(stderr, []byte("\n")) {
		out.WriteString("\n")
	}
	fmt.Fprintf(out, "exit %d\n", code)
}

// buildTimeRE matches the time `evdoc build` reports ("(0.8 s)").
var buildTimeRE = regexp.MustCompile(`\(\d+\.\d s\)`)

// normaliseCaseOutput replaces the paths that differ from run to run, and
// the time a build took with "(T s)".
func normaliseCaseOutput(b []byte, work, self, hugo string) []byte {
	s := string(b)
	var olds []string
	if real, err := filepath.EvalSymlinks(work); err == nil && real != work {
		olds = append(olds, real)
	}
	olds = append(olds, work)
	for _, o := range olds {
		s = strings.ReplaceAll(s, o, "$WORK")
	}
	s = strings.ReplaceAll(s, self, "evdoc")
	if hugo != "" {
		s = strings.ReplaceAll(s, hugo, "$EVDOC_HUGO")
	}
	return buildTimeRE.ReplaceAll([]byte(s), []byte("(T s)"))
}

// lineDiff lists the lines of want that got lacks ("-") and the lines of
// got that want lacks ("+"), in order.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	count := func(ls []string) map[string]int {
		m := map[string]int{}
		for _, l := range ls {
			m[l]++
		}
		return m
	}
	inW, inG := count(w), count(g)
	var b strings.Builder
	for _, l := range w {
		if inG[l] > 0 {
			inG[l]--
			continue
		}
		b.WriteString("-" + l + "\n")
	}
	for _, l := range g {
		if inW[l] > 0 {
			inW[l]--
			continue
		}
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

func TestRunLine(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   []string
	}{
		{"Case 16: read as two numbers (claim-arity). Run: evdoc check.", []string{"evdoc check"}},
		{"Case 25: ... Run: evdoc check; every claim below is wrong and must be an error.", []string{"evdoc check"}},
		{"Case 27: ... Run: evdoc check. Every approximate literal here is true", []string{"evdoc check"}},
		{"not read.\nRun: evdoc check; evdoc values evidence/redjet; evdoc fix; evdoc check\n", []string{"evdoc check", "evdoc values evidence/redjet", "evdoc fix", "evdoc check"}},
		{"Run: evdoc values --as envoy-stats admin.stats   (UNIT column empty)", []string{"evdoc values --as envoy-stats admin.stats"}},
		{"Run (evdoc on PATH, EVDOC_HUGO=<hugo v0.165.0>): sh repro.sh", []string{"sh repro.sh"}},
		{"Run: sh repro.sh   (evdoc on PATH; no Hugo needed)", []string{"sh repro.sh"}},
		{"Run: evdoc check (exit 0); evdoc check --format=json shows \"number\"; then write [142h37m] and run evdoc fix --dry-run", []string{"evdoc check", "evdoc check --format=json"}},
		{"Case 34: two ko pages share translationKey 'retry'.", []string{"evdoc check"}},
		{"Run: go test ./...", []string{"evdoc check"}},
	} {
		if got := runLine(tt.header); !slices.Equal(got, tt.want) {
			t.Errorf("runLine(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

// failRecorder is a testing.TB that records Fatalf and Skipf instead of
// stopping the test.
type failRecorder struct {
	testing.TB
	fatal, skip []string
}

func (r *failRecorder) Helper() {}
func (r *failRecorder) Fatalf(format string, args ...any) {
	r.fatal = append(r.fatal, fmt.Sprintf(format, args...))
}
func (r *failRecorder) Skipf(format string, args ...any) {
	r.skip = append(r.skip, fmt.Sprintf(format, args...))
}

// TestSharedCasesDirRequired: with EVDOC_SHARED_CASES set, a missing or
// empty directory fails the suite rather than skipping it, so CI cannot
// pass without running a case.
func TestSharedCasesDirRequired(t *testing.T) {
	empty := t.TempDir()
	for _, dir := range []string{filepath.Join(empty, "missing"), empty} {
		t.Setenv(sharedCasesEnv, dir)
		r := &failRecorder{TB: t}
		if got := sharedCasesDir(r); len(r.fatal) == 0 {
			sharedCaseFiles(r, got)
		}
		if len(r.fatal) == 0 || len(r.skip) > 0 {
			t.Errorf("%s=%s: fatal %q, skip %q; want a failure and no skip", sharedCasesEnv, dir, r.fatal, r.skip)
		}
	}
	withCase := t.TempDir()
	if err := os.MkdirAll(filepath.Join(withCase, "s4"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(withCase, "s4", "x.txtar"), []byte("-- hugo.toml --\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sharedCasesEnv, withCase)
	r := &failRecorder{TB: t}
	cases := sharedCaseFiles(r, sharedCasesDir(r))
	if len(r.fatal) > 0 || len(cases) != 1 || cases["s4/x"] == "" {
		t.Errorf("one case under s4/: fatal %q, cases %v; want s4/x", r.fatal, cases)
	}
}
