package site

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/atomicdir"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/evdoc-lab/evdoc/internal/interrupt"
	"github.com/evdoc-lab/evdoc/internal/lock"
	"github.com/evdoc-lab/evdoc/internal/procgroup"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// Out is the site output directory relative to Root ("public").
	Out string
	// Hugo is the command that runs Hugo, program first (the evdoc
	// command finds it: --hugo, EVDOC_HUGO, PATH or its pinned build).
	// It is required: nothing of the project, such as its tools/hugo
	// module, is ever run in its place.
	Hugo []string
	// HugoTimeout stops Hugo (its whole process group) when it runs
	// longer; zero means no limit.
	HugoTimeout time.Duration
	// Log receives Hugo's warnings and errors, notes on what earlier killed
	// runs left, and one summary line when the site is built; nil discards
	// them.
	Log io.Writer
	// Verbose also sends Log each step's progress line (check, staging,
	// each figure, the Hugo command) and all of Hugo's output, its build
	// report included. Without it Hugo's output reaches Log only as its
	// WARN and ERROR lines, or whole when Hugo fails.
	Verbose bool
	// Check tunes claim judgement.
	Check check.Options
	// Findings, when set, receives every finding of the check before
	// anything is built (errors, warnings and notes, as check reports
	// them), so the caller can print them.
	Findings func(diag.List)
	// Strict fails the build on warnings: a warning finding stops it
	// like an error, and so does a warning Hugo logs, except Hugo's
	// deprecation notices (a theme's templates cause them; they are
	// printed). Without it Hugo's warnings are printed (Log) and do not
	// fail the build.
	Strict bool
	// KeepStage, when not empty, is a new directory (absolute, or
	// relative to the working directory) the staged Hugo project is moved
	// to after Hugo ran, successful or not, instead of being removed:
	// for profiling Hugo on it (hugo --source DIR --templateMetrics) and
	// for debugging the generated pages and data. It must not exist yet.
	KeepStage string

	// replace swaps the new site into place; tests inject failures.
	replace *atomicdir.Ops
	// unverified skips verifyOutput: tests whose fake Hugo writes a
	// one-file site set it.
	unverified bool
}

// PinnedHugo returns the command that runs the Hugo version evdoc's own
// source tree at root pins in its nested tool module tools/hugo: go -C
// ROOT/tools/hugo tool hugo (compiled on first use, then cached by Go).
// evdoc's tests build with it. It is never a checked project's command:
// that project's tools/hugo is the repository's code, and go would
// compile and run whatever program it names.
func PinnedHugo(root string) []string {
	return []string{"go", "-C", filepath.Join(root, "tools", "hugo"), "tool", "hugo"}
}

// directTool turns a "go … tool NAME" command into the tool's own binary
// (asked of go with tool -n, which builds and caches it), so Hugo runs as
// evdoc's direct child: then the kernel kills it when evdoc dies, even by
// SIGKILL (procgroup's parent-death signal), where a grandchild under
// "go tool" would run on. Any other command, or a go that cannot answer,
// is returned as it was.
func directTool(ctx context.Context, cmd []string) []string {
	n := len(cmd)
	if n < 3 || filepath.Base(cmd[0]) != "go" || cmd[n-2] != "tool" {
		return cmd
	}
	args := append(append([]string{}, cmd[1:n-1]...), "-n", cmd[n-1])
	out, err := exec.CommandContext(ctx, cmd[0], args...).Output()
	if err != nil {
		return cmd
	}
	bin := strings.TrimSpace(string(out))
	if fi, err := os.Stat(bin); err != nil || strings.ContainsAny(bin, " \n") || fi.Mode()&0o111 == 0 {
		return cmd
	}
	return []string{bin}
}

// stagedDirs are the project directories Hugo reads that Build copies
// into the stage (a missing one is skipped): the site's own and its
// themes' templates, data, resources and configuration directory, and
// its vendored Hugo Modules.
var stagedDirs = []string{"layouts", "static", "i18n", "content", "themes", "data", "assets", "archetypes", "config", "_vendor"}

// stagedRootFiles are the files besides the configuration (RootConfigFiles)
// that Stage copies from the project's root: a Hugo Modules site's module
// requirements, which Hugo reads to find its imports.
var stagedRootFiles = []string{"go.mod", "go.sum", "go.work", "go.work.sum"}

// stagedDirs returns the project directories Stage copies: stagedDirs
// and every language's content directory that is not under one of them
// (contentDir = "content.ko", as hugo-book's example site keeps its
// pages), by its first path element. A content directory outside the
// project (absolute, or reaching up with "..") is Hugo's to read where it
// is and is not copied.
func (s *Site) stagedDirs() []string {
	dirs := append([]string{}, stagedDirs...)
	if s.Config == nil {
		return dirs
	}
	for _, l := range s.Config.Ordered() {
		d := path.Clean(filepath.ToSlash(l.ContentDir))
		if path.IsAbs(d) || d == "." || d == ".." || strings.HasPrefix(d, "../") {
			continue
		}
		top, _, _ := strings.Cut(d, "/")
		if !slices.Contains(dirs, top) {
			dirs = append(dirs, top)
		}
	}
	return dirs
}

// workDir is where Build stages the Hugo project, relative to Root.
const workDir = ".evdoc"

// LockFile is the project lock, relative to Root: build and fix hold it
// while they run (see LockProject).
const LockFile = workDir + "/lock"

// TempDir returns the directory for the temporary files of writes into
// the project at root (fix's new pages): inside evdoc's work directory, so
// a run killed mid-write leaves nothing in content/. Only a holder of the
// project lock may empty it.
func TempDir(root string) string { return filepath.Join(root, workDir, "tmp") }

// HugoGroupFile (in the work directory, or a serve run's directory)
// records the process group of the running Hugo and the
// stage it builds, so a run killed by SIGKILL can have its Hugo reaped by
// the next run.
const HugoGroupFile = "hugo.pgid"

// LockProject takes the exclusive lock of the project at root that build
// and fix hold while they write (the staged site, public/, pages), so two
// runs never interleave. It waits as opt says; the lock is released by
// Unlock or when the process exits, however it exits.
func LockProject(ctx context.Context, root string, opt lock.Options) (*lock.Lock, error) {
	work := filepath.Join(root, workDir)
	if err := ensureRealDir(work); err != nil {
		return nil, err
	}
	return lock.Acquire(ctx, filepath.Join(root, LockFile), opt)
}

// WriteGroupRecord records in file the process group Hugo runs in — its
// leader's identity (procgroup.Ident) — and marker, the run's own stage
// directory that Hugo's command line names, for ReapGroupRecord.
func WriteGroupRecord(file string, leader procgroup.Ident, marker string) error {
	return os.WriteFile(file, []byte(leader.String()+" "+marker+"\n"), 0o644)
}

// ReapGroupRecord stops what is left of the Hugo process group recorded
// in dir's file hugo.pgid by a run that was killed, and removes that file. Nothing is signalled
// unless the record names a stage the caller owns (own(marker): a stage
// directory of this project's work directory) and procgroup.Reap finds
// processes of that very group (this boot and pid namespace, this user,
// started with the leader, the marker on their command line): a record
// committed to the repository or planted there stops nothing. It returns
// how many processes it stopped.
func ReapGroupRecord(dir string, own func(marker string) bool) int {
	b, err := safefile.ReadFile(dir, HugoGroupFile, 4096)
	_ = os.Remove(filepath.Join(dir, HugoGroupFile))
	if err != nil {
		return 0
	}
	leader, marker, err := procgroup.ParseIdent(string(b))
	if err != nil || !filepath.IsAbs(marker) || filepath.Clean(marker) != marker || !own(marker) {
		return 0
	}
	return procgroup.Reap(leader, marker)
}

// WorkDir returns evdoc's work directory .evdoc of the project at root
// (absolute when root is), created when missing; a symbolic link or a
// file there is an error (evdoc writes and deletes inside it).
func WorkDir(root string) (string, error) {
	work := filepath.Join(root, workDir)
	return work, ensureRealDir(work)
}

// ensureRealDir creates dir (evdoc's work directory) when missing and
// refuses a symbolic link or a non-directory there: evdoc deletes inside
// it. What a repository planted in it is refused too (checkWorkEntries).
func ensureRealDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsDir() {
		return fmt.Errorf("%s is not a directory (a symbolic link or a file); expected evdoc's own work directory — remove it", dir)
	}
	return checkWorkEntries(dir)
}

// workSharedDirs are the directories of the work directory that evdoc
// and Hugo write into across runs: fix's temporary files and Hugo's file
// caches (HUGO_CACHEDIR).
var workSharedDirs = []string{"tmp", "hugo-cache"}

// checkWorkEntries refuses a work directory (committed, or planted by the
// repository) whose entries lead elsewhere: every entry of it must be a
// directory or a regular file, not a symbolic link (nor a FIFO, socket
// or device), and so must everything under the directories evdoc and
// Hugo write into across runs (workSharedDirs), so nothing written there
// lands outside the project. Its error names the entry.
func checkWorkEntries(work string) error {
	entries, err := os.ReadDir(work)
	if err != nil {
		return err
	}
	bad := func(p string, m fs.FileMode) error {
		if m.IsDir() || m.IsRegular() {
			return nil
		}
		what := "a symbolic link"
		if m&fs.ModeSymlink == 0 {
			what = "not a regular file or directory"
		}
		return fmt.Errorf("%s is %s; expected only evdoc's own files in its work directory %s — remove it", p, what, work)
	}
	for _, e := range entries {
		p := filepath.Join(work, e.Name())
		if err := bad(p, e.Type()); err != nil {
			return err
		}
		if !e.IsDir() || !slices.Contains(workSharedDirs, e.Name()) {
			continue
		}
		err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return bad(q, d.Type())
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Build checks the site, renders figures, stages the Hugo project with the
// generated pages (translation fallbacks, raw evidence pages) and data, and
// runs Hugo on it. The output replaces Out in one atomic step only when
// Hugo succeeded and the output holds every claim and evidence page as
// evdoc's theme component renders them (verifyOutput), so a failed, interrupted or killed build never leaves a
// partial site: Out holds the old site or the new one. A site with error
// findings is not built: Build returns them as a diag.List.
//
// The caller holds the project lock (LockProject): Build removes what
// earlier, killed runs left (stage directories, half-written output,
// their Hugo processes) and restores an old site a killed swap left aside.
// The stage and the new output directory are unique to the run and
// removed when Build returns. When ctx is done Hugo's process group is
// stopped and Build returns ctx's error; Out is left as it was.
func (s *Site) Build(ctx context.Context, opt BuildOptions) error {
	if len(opt.Hugo) == 0 {
		return errors.New("no Hugo command to run; expected BuildOptions.Hugo")
	}
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	began := time.Now()
	progress := io.Discard
	if opt.Verbose {
		progress = logw
	}
	out := opt.Out
	if out == "" {
		out = "public"
	}
	final, err := s.outputDir(out)
	if err != nil {
		return err
	}
	ops := atomicdir.OS()
	if opt.replace != nil {
		ops = *opt.replace
	}
	work := filepath.Join(s.Root, workDir)
	if err := ensureRealDir(work); err != nil {
		return err
	}
	if err := cleanLeftovers(work, final, ops, logw); err != nil {
		return err
	}
	if opt.KeepStage != "" {
		if _, err := os.Lstat(opt.KeepStage); err == nil {
			return fmt.Errorf("--keep-stage %s: it exists; expected a new directory", opt.KeepStage)
		}
	}
	// Checking only reads: on SIGINT/SIGTERM it is abandoned at once.
	start := time.Now()
	// Of the claims' verdicts only what staging needs is kept
	// (StageData), page by page as they are judged.
	type verdicts struct {
		data   *StageData
		claims int
		ds     diag.List
	}
	chk, err := interrupt.Wait(ctx, func() verdicts {
		c := NewCheckerWith(s, CheckerOptions{Check: opt.Check, CountsOnly: true, Stage: true})
		_, total := c.Counts()
		return verdicts{c.StageData(), total, c.Diagnostics()}
	})
	if err != nil {
		return err
	}
	data, ds := chk.data, chk.ds
	checked := time.Since(start)
	if opt.Findings != nil {
		opt.Findings(ds)
	}
	if ds.HasErrors() || (opt.Strict && ds.Count(diag.Warning) > 0) {
		return ds
	}
	stage, err := os.MkdirTemp(work, "stage-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if opt.KeepStage != "" {
		defer func() {
			// A git command run in the kept directory must not take it
			// for a work tree of the project's repository.
			_ = os.Remove(filepath.Join(stage, ".git"))
			if err := os.Rename(stage, opt.KeepStage); err != nil {
				fmt.Fprintf(logw, "evdoc: not kept: %v (the stage is removed)\n", err)
				return
			}
			fmt.Fprintf(logw, "evdoc: staged project kept in %s\n", opt.KeepStage)
		}()
	}
	fmt.Fprintf(progress, "evdoc: %d claims checked, %d pages, %d evidence sets (check %.2f s)\n", chk.claims, len(s.Pages), len(s.Store.Sets), checked.Seconds())
	start = time.Now()
	staged, err := s.Stage(ctx, stage, data, progress)
	if staged != nil {
		for _, n := range staged.NotStaged {
			fmt.Fprintf(logw, "evdoc: warning: %s\n", n)
		}
	}
	for _, n := range s.mainSectionTies(time.Now()) {
		fmt.Fprintln(logw, n)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "evdoc: staged in %.2f s\n", time.Since(start).Seconds())
	hugoEnv, v := staged.Env, staged.viewer
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	tmpOut, err := atomicdir.NewTemp(final)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpOut) // gone after a successful swap
	cmd := directTool(ctx, opt.Hugo)
	absStage, _ := filepath.Abs(stage)
	args := append(append([]string{}, cmd[1:]...), "--source", absStage, "--destination", tmpOut, "--logLevel", "warn")
	fmt.Fprintf(progress, "evdoc: running %s\n", strings.Join(append([]string{cmd[0]}, args...), " "))
	c := exec.Command(cmd[0], args...)
	var hugoOut bytes.Buffer
	// One writer for both streams: os/exec then copies them in a single
	// goroutine, so logw and hugoOut are never written concurrently.
	hugoLog := progress
	if !opt.Verbose {
		hugoLog = &hugoProblems{w: logw, stage: absStage}
	}
	hugoW := io.MultiWriter(hugoLog, &hugoOut)
	c.Stdout = hugoW
	c.Stderr = hugoW
	c.Env = HugoEnviron(os.Environ(), append(append([]string{}, hugoEnv...), "HUGO_CACHEDIR="+filepath.Join(absStage, "..", "hugo-cache")))
	groupFile := filepath.Join(work, HugoGroupFile)
	start = time.Now()
	err = procgroup.Run(ctx, c, procgroup.Options{Timeout: opt.HugoTimeout, Started: func(leader procgroup.Ident) {
		_ = WriteGroupRecord(groupFile, leader, absStage)
	}})
	_ = os.Remove(groupFile)
	fmt.Fprintf(progress, "evdoc: hugo ran %.2f s\n", time.Since(start).Seconds())
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("interrupted while Hugo ran (%w); %s left as it was", ctx.Err(), out)
		case errors.Is(err, procgroup.ErrTimeout):
			return fmt.Errorf("hugo %v (see --hugo-timeout); %s left as it was", err, out)
		case opt.Log != nil && opt.Verbose:
			return fmt.Errorf("hugo failed: %v (its output is above)", err)
		}
		if a := extendedAdvice(hugoOut.Bytes(), cmd[0]); a != "" {
			return fmt.Errorf("hugo failed: %v\n%s%s", err, unstage(hugoOut.Bytes(), absStage), a)
		}
		return fmt.Errorf("hugo failed: %v\n%s", err, unstage(hugoOut.Bytes(), absStage))
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted (%w); %s left as it was", err, out)
	}
	if _, err := os.Stat(filepath.Join(tmpOut, "index.html")); err != nil {
		return fmt.Errorf("hugo succeeded but wrote no index.html; %s left as it was", out)
	}
	if opt.Strict {
		// Not Hugo's --panicOnWarning, which also fails on the
		// deprecation notices a theme's templates cause (and ends in a
		// Go stack trace): the build fails on Hugo's other warnings.
		warns, deprecated := hugoWarnings(unstage(hugoOut.Bytes(), absStage))
		if len(deprecated) > 0 {
			fmt.Fprintf(logw, "evdoc: Hugo reported %d deprecation or theme compatibility notice(s), which --strict does not fail on (update the theme or the template that uses it):\n  %s\n", len(deprecated), strings.Join(deprecated, "\n  "))
		}
		if len(warns) > 0 {
			return fmt.Errorf("--strict: Hugo warned %d time(s):\n  %s\n%s left as it was", len(warns), strings.Join(warns, "\n  "), out)
		}
	}
	for _, f := range v.order {
		// A sparse file's viewer pages link to its published copy.
		if vf := v.files[f]; vf.Sparse {
			if _, err := os.Stat(filepath.Join(tmpOut, filepath.FromSlash(vf.File))); err != nil {
				return fmt.Errorf("hugo did not publish %s from the staged static/ (is staticDir set in %s?); its viewer pages would link to a missing file; %s left as it was", vf.File, ConfigFile, out)
			}
		}
	}
	if !opt.unverified {
		if err := s.verifyOutput(ctx, tmpOut, out, staged, data, opt.Log, opt.Strict); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted (%w); %s left as it was", ctx.Err(), out)
			}
			return err
		}
	}
	if err := atomicdir.Replace(ops, tmpOut, final); err != nil {
		return fmt.Errorf("replacing %s: %v", out, err)
	}
	fmt.Fprintf(logw, "evdoc: built %s: %d pages, %d claims checked; %d error(s), %d warning(s) (%.1f s)\n",
		out, len(s.Pages), chk.claims, ds.Count(diag.Error), ds.Count(diag.Warning), time.Since(began).Seconds())
	return nil
}

// hugoProblems passes on the lines of Hugo's output that are warnings or
// errors (Hugo starts them with WARN or ERROR), so a build that succeeds
// prints what needs attention and not Hugo's build report.
type hugoProblems struct {
	w       io.Writer
	partial []byte
	// stage is the stage's absolute path, which lines name as the
	// project (see unstage).
	stage string
}

// unstage returns Hugo's output b with each path under stage (the
// absolute path of the staged project) written as the project's own
// relative path: Hugo names the staged copy of a page
// (".evdoc/stage-123/content/ko/docs/p.md:7:1"), which is the page
// content/ko/docs/p.md of the project.
func unstage(b []byte, stage string) []byte {
	if stage == "" {
		return b
	}
	return bytes.ReplaceAll(b, []byte(stage+string(filepath.Separator)), nil)
}

func (h *hugoProblems) Write(p []byte) (int, error) {
	h.partial = append(h.partial, p...)
	for {
		i := bytes.IndexByte(h.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := h.partial[:i+1]
		if bytes.HasPrefix(line, []byte("WARN")) || bytes.HasPrefix(line, []byte("ERROR")) {
			if _, err := h.w.Write(unstage(line, h.stage)); err != nil {
				return len(p), err
			}
		}
		h.partial = h.partial[i+1:]
	}
}

// Staged is what Stage produced that running Hugo on the stage needs.
type Staged struct {
	// Env are the environment variables Hugo runs with (Config.HugoEnv).
	Env []string
	// viewer knows the evidence files published whole, which Build
	// checks Hugo published.
	viewer *viewer
	// generated are the pages only the stage has (generatedPages).
	generated []generatedPage
	// NotStaged names each entry of a staged directory that was not
	// copied (a symbolic link with its target, a FIFO, socket or device)
	// and says what that means; Build and serve print them as warnings.
	NotStaged []string
}

// generatedPage is a page file evdoc build writes into the stage (an
// evidence page, a translation fallback), which the repository does not
// have: its path in the project and within its content directory, as a
// theme's "edit this page" link built from the page's file names it.
type generatedPage struct {
	Project, Content string
}

// generatedPages returns the page files under the content directories of
// stage that the project at s.Root does not have.
func (s *Site) generatedPages(stage string) ([]generatedPage, error) {
	var out []generatedPage
	seen := map[string]bool{}
	for _, lang := range s.Config.Ordered() {
		cd := path.Clean(lang.ContentDir)
		if seen[cd] {
			continue
		}
		seen[cd] = true
		root := filepath.Join(stage, filepath.FromSlash(cd))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == root {
					return nil
				}
				return err
			}
			if !d.Type().IsRegular() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			rel, err := filepath.Rel(stage, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if _, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(rel))); err == nil {
				return nil
			}
			out = append(out, generatedPage{Project: rel, Content: strings.TrimPrefix(rel, cd+"/")})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Stage writes into stage (a new or empty directory) the Hugo project
// Build runs Hugo on: the project's files Hugo reads (stagedDirs,
// RootConfigFiles), the generated translation fallbacks, evidence viewer
// pages, claim and set data (data/evdoc) and the figures rendered from
// the current evidence. data is what staging needs of the verdicts on
// the site's claims (Checker.StageData, StageDataOf). It returns
// what running Hugo on the stage needs. Progress lines go to logw (nil discards them). It
// returns ctx's error when ctx is done between steps; the caller removes
// the stage.
func (s *Site) Stage(ctx context.Context, stage string, data *StageData, logw io.Writer) (*Staged, error) {
	if logw == nil {
		logw = io.Discard
	}
	// Hugo gets the environment and the CJK settings evdoc's staged
	// Markdown relies on.
	hugoEnv, mdOpt, err := s.Config.HugoEnv()
	if err != nil {
		return nil, err
	}
	// Pages are copied as Hugo should read them (translation.HugoMarkdown),
	// each written once.
	var contentDirs []string
	for _, l := range s.Config.Ordered() {
		contentDirs = append(contentDirs, path.Clean(filepath.ToSlash(l.ContentDir))+"/")
	}
	// Claims of a destination written at several precisions name their
	// own in the staged page (markClaims), for their popovers.
	multi, marks := data.precisionMarks()
	// The values evtable calls show: their cells land on the token.
	var tablesMu sync.Mutex
	var tables []evtableShown
	hugoMarkdown := func(rel string, b []byte) ([]byte, bool) {
		if !strings.HasSuffix(rel, ".md") {
			return nil, false
		}
		for _, d := range contentDirs {
			if strings.HasPrefix(rel, d) {
				if e := evtableCalls(b); e != nil {
					tablesMu.Lock()
					tables = append(tables, e...)
					tablesMu.Unlock()
				}
				pinned, ok := markClaims(s.Config.markdown(), rel, b, true, marks[rel], 0)
				out, ins := translation.HugoMarkdown(pinned, mdOpt)
				return out, ok || len(ins) > 0
			}
		}
		return nil, false
	}
	var notStagedAll []string
	for _, d := range s.stagedDirs() {
		notStagedAll = append(notStagedAll, notStaged(s.Root, d)...)
		if err := stageTree(ctx, s.Root, stage, d, hugoMarkdown); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("staging %s: %v", d, err)
		}
	}
	for _, f := range append(append([]string{}, RootConfigFiles...), stagedRootFiles...) {
		if err := copyFile(filepath.Join(s.Root, f), filepath.Join(stage, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("staging %s: %v", f, err)
		}
	}
	// evdoc's link hook runs the host theme's own for every link that is
	// not a claim: the stage holds that hook as it is now in the theme.
	if _, _, err := hosttheme.SyncHostHooks(s.Root, stage, s.Config.Themes); err != nil {
		return nil, fmt.Errorf("staging the host theme's link render hook: %v", err)
	}
	if s.Config.EnableGitInfo {
		stageGitInfo(ctx, s.Root, stage, logw)
	}
	if err := s.stageFallbacks(ctx, stage, mdOpt, marks); err != nil {
		return nil, err
	}
	v, err := s.newViewer(ctx)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted while staging
	}
	// Claims, value tables and figures first: the windows they link to
	// are the pages a sparse evidence file gets.
	if err := s.stageClaims(stage, v, data, multi, tables); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted while staging
	}
	if err := s.stageFigures(ctx, stage, v, logw); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.stageEvidence(ctx, stage, v, data); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gen, err := s.generatedPages(stage)
	if err != nil {
		return nil, err
	}
	// Evidence pages must not move the defaults the host's templates
	// read (sitedefaults.go).
	hugoEnv = append(hugoEnv, s.siteDefaultsEnv(time.Now())...)
	return &Staged{Env: hugoEnv, viewer: v, generated: gen, NotStaged: notStagedAll}, nil
}

// stageGitInfo lets Hugo, run on stage, read the git history of the
// project at root as plain hugo would (enableGitInfo: .GitInfo, a lastmod
// from git): Hugo maps each page to the history of its file by its path
// relative to the top of the git work tree it finds from the stage, and
// the stage is no work tree. A .git file in the stage naming the
// project's git directory (gitdir: …) makes the stage that work tree's
// double, its files at the paths git knows them by, when the project is
// the top of its work tree. A project in a subdirectory of its work tree
// keeps other paths in git's history than in the stage: its build has no
// GitInfo, which a warning on logw says. A project not under git is left
// to Hugo, which fails on it as plain hugo does.
func stageGitInfo(ctx context.Context, root, stage string, logw io.Writer) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--show-prefix", "--absolute-git-dir").Output()
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return
	}
	if prefix := strings.TrimSpace(lines[0]); prefix != "" {
		fmt.Fprintf(logw, "evdoc: warning: enableGitInfo: the project is the subdirectory %s of its git work tree, which evdoc build does not stage; its pages have no .GitInfo and no lastmod from git (plain hugo has them)\n", strings.TrimSuffix(prefix, "/"))
		return
	}
	if err := writeFile(filepath.Join(stage, ".git"), []byte("gitdir: "+lines[1]+"\n")); err != nil {
		fmt.Fprintf(logw, "evdoc: warning: enableGitInfo: %v; the pages have no .GitInfo\n", err)
	}
}

// pinClaimPositions returns page src (at rel) with the position of each
// of its claims in the page written after the claim's destination, as
// evdoc's claim render hook reads it ("[4건](<ev:SET/NAME @LINE:COL>)"),
// and true, when the page has a shortcode call: Hugo gives a link inside
// a shortcode's inner content ({{% tab %}}…{{% /tab %}}) a position
// counted from the shortcode, so two tabs quoting the same sentence would
// give two claims one position and one popover id. The positions are the
// claim parser's (the AST's). Another page, and a claim whose
// destination is not written as goldmark read it (escapes, a reference
// link), is left as it is: Hugo's position is right there, or the claim
// keeps it.
func pinClaimPositions(rel string, src []byte) ([]byte, bool) {
	return markClaims(claim.MarkdownConfig{}, rel, src, true, nil, 0)
}

// markClaims is pinClaimPositions (when pin is set) that also writes
// the precision of each claim of marks (by its literal's offset in the
// page, shift bytes before its offset in src) into its destination, as
// the render hook reads it ("[40.3초](<ev:SET/NAME ~1>)": its data key,
// see precisionKey). The page is read with the site's goldmark
// configuration md, as check reads it: a link inside a passthrough
// formula is the formula's text, not a claim to mark.
func markClaims(md claim.MarkdownConfig, rel string, src []byte, pin bool, marks map[int]string, shift int) ([]byte, bool) {
	pin = pin && bytes.Contains(src, []byte("{{"))
	if !pin && len(marks) == 0 || !bytes.Contains(src, []byte("ev:")) {
		return src, false
	}
	m := claim.NewMarkdownWith(md)
	parsed, _ := claim.Parse(m, rel, src)
	// The brackets written around a destination can pair with brackets
	// in the claim's own text ("[0[0](<](ev:x)": the "(<" in the text
	// and the new "<" make an inner link, and the claim is gone), so
	// the marked page is parsed again and must hold the same claims in
	// the same order; a claim whose marking changes the parse is left
	// as written (its position then is Hugo's, which the output check
	// verifies), and the page is marked again without it.
	skip := map[int]bool{}
	for {
		out, n := appendMarks(parsed.Claims, src, pin, marks, shift, skip)
		if n == 0 {
			return src, false
		}
		again, _ := claim.Parse(m, rel, out)
		bad := sameClaims(parsed.Claims, again.Claims)
		if bad < 0 {
			return out, true
		}
		// the claim that differs, else the next one still marked (its
		// brackets can pair with text of a claim before it), else the
		// nearest one before
		k := bad
		for k < len(parsed.Claims) && skip[k] {
			k++
		}
		if k == len(parsed.Claims) {
			for k = bad; k >= 0 && skip[k]; k-- {
			}
		}
		if k < 0 {
			return src, false
		}
		skip[k] = true
	}
}

// appendMarks writes src with the position (pin) and precision (marks)
// of each claim written after its destination, but the claims of skip
// (by index); n counts the claims marked.
func appendMarks(claims []claim.Claim, src []byte, pin bool, marks map[int]string, shift int, skip map[int]bool) (out []byte, n int) {
	last := 0
	for i, c := range claims {
		a, e := c.RefPos.Offset, c.DestEnd.Offset
		if skip[i] || c.Exempt || !strings.HasPrefix(c.Destination, claim.Scheme) || a < last || e > len(src) || a >= e ||
			string(src[a:e]) != c.Destination || strings.Contains(c.Destination, " @") || strings.Contains(c.Destination, " ~") {
			continue
		}
		p, marked := marks[c.Pos.Offset-shift]
		if !pin && !marked {
			continue
		}
		// in angle brackets already (<ev:…>): the marks go inside
		bracketed := a > 0 && src[a-1] == '<' && e < len(src) && src[e] == '>'
		if !bracketed && strings.ContainsAny(c.Destination, "<>") {
			// "ev:>" would end the <…> it is put in; no set or value
			// is named with them, so check has already reported it
			continue
		}
		out = append(out, src[last:a]...)
		if !bracketed {
			out = append(out, '<')
		}
		out = append(out, c.Destination...)
		if marked {
			out = append(out, " ~"...)
			out = append(out, p...)
		}
		if pin {
			out = fmt.Appendf(out, " @%d:%d", c.Pos.Line, c.Pos.Column)
		}
		if !bracketed {
			out = append(out, '>')
		}
		last = e
		n++
	}
	if n == 0 {
		return src, 0
	}
	return append(out, src[last:]...), n
}

// sameClaims returns the index of the first claim of after that differs
// from before's (its literal, or its destination without the marks
// markClaims writes), the index where one list ends early, or -1 when
// both hold the same claims.
func sameClaims(before, after []claim.Claim) int {
	for i := range min(len(before), len(after)) {
		d, _, _ := strings.Cut(after[i].Destination, " ~")
		d, _, _ = strings.Cut(d, " @")
		if d != before[i].Destination || after[i].Literal != before[i].Literal {
			return i
		}
	}
	if len(before) != len(after) {
		return min(len(before), len(after))
	}
	return -1
}

// DirectTool returns the command to run for cmd as Build runs it: a
// "go … tool NAME" command becomes the tool's own binary, so Hugo is the
// caller's direct child and dies with it (see directTool).
func DirectTool(ctx context.Context, cmd []string) []string { return directTool(ctx, cmd) }

// cleanLeftovers removes what runs killed before they could clean up left
// behind: a Hugo process group still running, stage directories, new-site
// directories next to final, and an old site moved aside (restored when
// final is missing). The caller holds the project lock.
func cleanLeftovers(work, final string, ops atomicdir.Ops, logw io.Writer) error {
	if n := ReapGroupRecord(work, func(stage string) bool {
		return filepath.Dir(stage) == work && strings.HasPrefix(filepath.Base(stage), "stage-")
	}); n > 0 {
		fmt.Fprintf(logw, "evdoc: stopped %d Hugo process(es) left by a killed run\n", n)
	}
	entries, _ := os.ReadDir(work)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "stage") && e.IsDir() {
			if err := os.RemoveAll(filepath.Join(work, e.Name())); err != nil {
				return fmt.Errorf("removing a stage left by an earlier run: %v", err)
			}
		}
	}
	restored, err := atomicdir.Recover(ops, final)
	if err != nil {
		return err
	}
	if restored {
		fmt.Fprintf(logw, "evdoc: restored %s from the copy a killed run left aside\n", final)
	}
	entries, _ = os.ReadDir(filepath.Dir(final))
	for _, e := range entries {
		if e.IsDir() && atomicdir.TempName(filepath.Base(final), e.Name()) {
			if err := os.RemoveAll(filepath.Join(filepath.Dir(final), e.Name())); err != nil {
				return fmt.Errorf("removing output left by an earlier run: %v", err)
			}
		}
	}
	return nil
}

// sourceDirs are the project directories an output may never replace.
var sourceDirs = []string{"content", EvidenceDir, FiguresDir, "layouts", "static", "i18n", "themes", "assets", "config", "data", "tools", "cmd", "generator", ".git", workDir}

// outputDir resolves out (relative to Root, or absolute; symbolic links
// resolved) and refuses destinations that would replace sources: the
// root itself or an ancestor, a source directory or anything inside one
// (also when reached through a link), an existing file, or a non-empty
// directory that is not a previous site (no index.html). It returns the
// resolved path, which is what Build writes and replaces.
func (s *Site) outputDir(out string) (string, error) {
	root, err := filepath.Abs(s.Root)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	abs := out
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, out)
	}
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("--out %s: %s; expected a new or previously built output directory such as public", out, why)
	}
	abs, err = safefile.Resolve(abs)
	if err != nil {
		return refuse(err.Error())
	}
	if safefile.Within(root, abs) {
		return refuse("it contains the project")
	}
	for _, d := range append(append([]string{}, sourceDirs...), s.stagedDirs()...) {
		src := filepath.Join(root, d)
		if safefile.Within(abs, src) {
			return refuse("it is inside the project's " + d + "/ directory")
		}
		if r, err := filepath.EvalSymlinks(src); err == nil && r != src && safefile.Within(abs, r) {
			return refuse("it is inside " + r + ", where the project's " + d + "/ directory links to")
		}
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return refuse("it is an existing file")
	case err == nil:
		entries, _ := os.ReadDir(abs)
		if _, ierr := os.Stat(filepath.Join(abs, "index.html")); len(entries) > 0 && ierr != nil {
			return refuse("it is a non-empty directory without index.html, not a previous site")
		}
	}
	return abs, nil
}

// Fallbacks returns, for each target language, the generated pages that
// show a source page it has no translation of (see translation.Set).
func (s *Site) Fallbacks() map[string][]Fallback { return s.Translations.Fallbacks() }

// Fallback is one generated target-language page (see translation.Fallback).
type Fallback = translation.Fallback

// stageFallbacks writes the generated fallback pages into the stage, as
// Hugo should read them (translation.HugoMarkdown with mdOpt).
func (s *Site) stageFallbacks(ctx context.Context, stage string, mdOpt translation.MarkdownOptions, marks map[string]map[int]string) error {
	src := s.Config.Source()
	md := s.Config.NewMarkdown()
	cascades := s.cascades()
	for _, fbs := range s.Fallbacks() {
		for _, f := range fbs {
			if err := ctx.Err(); err != nil {
				return err
			}
			var b []byte
			err := s.withParsed(f.Source, md, func() (err error) {
				// what the source's sections cascade to it (a draft,
				// build.render never) goes into the fallback's own front
				// matter: the target language may have no such section
				// page, and the fallback must not publish a page the
				// source language hides
				if fm := cascaded(f.Source, cascades); len(fm) != len(f.Source.FrontMatter) {
					p := *f.Source
					p.FrontMatter = fm
					f.Source = &p
				}
				// a page with no file of its own links its source
				// page's file for editing (Hextra's editURL,
				// PaperMod's editPost)
				if f.Target == nil && s.Config.HasEditLink() {
					p := *f.Source
					p.FrontMatter = maps.Clone(p.FrontMatter)
					if p.FrontMatter == nil {
						p.FrontMatter = map[string]any{}
					}
					p.FrontMatter[translation.SourceParam] = p.Path
					s.Config.setEditURL(p.FrontMatter)
					f.Source = &p
				}
				if b, err = f.Render(src); err != nil {
					return err
				}
				// the source's body after the fallback's own front
				// matter: its claims' precision marks, shifted
				shift := len(b) - len(f.Source.Body()) - f.Source.Parsed.BodyStart
				b, _ = markClaims(s.Config.markdown(), f.File(src), b, false, marks[f.Source.Path], shift)
				return nil
			})
			if err != nil {
				return err
			}
			b, _ = translation.HugoMarkdown(b, mdOpt)
			if err := writeFile(filepath.Join(stage, filepath.FromSlash(f.File(src))), b); err != nil {
				return err
			}
			if f.Lang.ContentDir != src.ContentDir && (f.Source.Section || isIndex(f.Source.Rel)) {
				if err := stageBundleResources(stage, s.Root, f.Source, f.File(src)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// stageBundleResources copies into the stage, next to the fallback page
// file (a path relative to the root), the resources of the bundle whose
// index is source page p: a leaf bundle's files below its directory, a
// branch bundle's files in its directory, Markdown files excepted. Hugo
// gives a page the resources of its own language's content directory, so
// without them a relative link or image of the generated page (img.png)
// would be a 404. A file the target language has already stays.
func stageBundleResources(stage, root string, p *Page, file string) error {
	from := filepath.Join(root, filepath.FromSlash(path.Dir(p.Path)))
	to := filepath.Join(stage, filepath.FromSlash(path.Dir(file)))
	return filepath.WalkDir(from, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if f != from && p.Section {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.EqualFold(filepath.Ext(f), ".md") {
			return nil
		}
		rel, _ := filepath.Rel(from, f)
		dst := filepath.Join(to, rel)
		if _, err := os.Lstat(dst); err == nil {
			return nil
		}
		return copyFile(f, dst)
	})
}

func (s *Site) stageClaims(stage string, v *viewer, data *StageData, multi map[string]bool, tables []evtableShown) error {
	sets, err := json.MarshalIndent(v.sets(s.Store, tables), "", " ")
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(stage, "data", "evdoc", "sets.json"), sets); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v.claims(data, multi, s.Store), "", " ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(stage, "data", "evdoc", "claims.json"), b)
}

// figureData is what the evfigure shortcode reads of one figure, each
// field by language: the drawings' sizes differ between languages (a
// longer label wraps onto another line in the narrow drawing).
type figureData struct {
	Alt     map[string]string `json:"alt"`
	Caption map[string]string `json:"caption"`
	Width   map[string]int    `json:"width"`
	Height  map[string]int    `json:"height"`
	// NarrowWidth and NarrowHeight are the size of the drawing for
	// phones (NAME.LANG.narrow.svg), MinFont its smallest text in px at
	// the drawn size.
	NarrowWidth  map[string]int `json:"narrow_width"`
	NarrowHeight map[string]int `json:"narrow_height"`
	MinFont      map[string]int `json:"min_font"`
	// Source is the raw line of the figure's first input.
	Source *target `json:"source,omitempty"`
}

// FigureProject returns what rendering the site's figures needs: its
// specs, evidence, languages and per-language font chains.
func (s *Site) FigureProject() (*figure.Project, error) {
	var langs []string
	for _, l := range s.Config.Ordered() {
		langs = append(langs, l.Code)
	}
	p := &figure.Project{Root: s.Root, Store: s.Store, Specs: s.Figures, Langs: langs}
	if len(s.Figures) == 0 {
		return p, nil // no figure: no font needed
	}
	fonts, err := figure.LoadFonts(filepath.Join(s.Root, FontsDir), langs)
	if err != nil {
		return nil, err
	}
	p.Fonts = fonts
	return p, nil
}

// stageFigures renders every figure from the current evidence into the
// staged assets/figures (Hugo resources), so the site never shows a stale
// figure, and writes data/evdoc/figures.json for the evfigure shortcode.
func (s *Site) stageFigures(ctx context.Context, stage string, v *viewer, logw io.Writer) error {
	proj, err := s.FigureProject()
	if err != nil {
		return err
	}
	data := map[string]figureData{}
	for _, f := range s.Figures {
		if err := ctx.Err(); err != nil {
			return err
		}
		files, rec, err := s.FigureCache.files(proj, f)
		if err != nil {
			return err
		}
		fd := figureData{Alt: map[string]string{}, Caption: map[string]string{}, Width: map[string]int{}, Height: map[string]int{},
			NarrowWidth: map[string]int{}, NarrowHeight: map[string]int{}, MinFont: map[string]int{}}
		for lang, lr := range rec.Languages {
			fd.Alt[lang], fd.Caption[lang] = lr.Alt, lr.Caption
			fd.Width[lang], fd.Height[lang] = lr.Width, lr.Height
			fd.NarrowWidth[lang], fd.NarrowHeight[lang], fd.MinFont[lang] = lr.NarrowWidth, lr.NarrowHeight, lr.MinFont
		}
		if len(rec.Inputs) > 0 {
			if t, ok := v.target(rec.Inputs[0].Pos); ok {
				fd.Source = &t
			}
		}
		for _, file := range files {
			if err := writeFile(filepath.Join(stage, filepath.FromSlash(file.Path)), file.Data); err != nil {
				return err
			}
			fmt.Fprintf(logw, "evdoc: figure %s (%d bytes)\n", file.Path, len(file.Data))
		}
		data[f.Name] = fd
	}
	b, err := json.MarshalIndent(data, "", " ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(stage, "data", "evdoc", "figures.json"), b)
}

// writeJSONFrontMatterPage writes a page whose front matter is JSON (Hugo
// reads a page starting with "{" as JSON front matter). Evidence viewer
// windows use it: their per-line data (one map per raw line, with its
// citations) exceeds the node count Hugo's YAML decoder accepts ("too many
// YAML aliases for non-scalar nodes") once a file is cited a few thousand
// times; the JSON decoder has no such limit.
func writeJSONFrontMatterPage(p string, fm map[string]any, body string) error {
	j, err := json.Marshal(fm)
	if err != nil {
		return err
	}
	return writeFile(p, append(append(j, '\n'), body...))
}

// writeFrontMatterPage writes a page with YAML front matter fm and body.
func writeFrontMatterPage(p string, fm map[string]any, body string) error {
	y, err := yaml.Marshal(fm)
	if err != nil {
		return err
	}
	return writeFile(p, append(append(append([]byte("---\n"), y...), []byte("---\n")...), body...))
}

func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// copyFile copies from to to, streaming (a large static file is not
// held in memory).
func copyFile(from, to string) error {
	// A regular file, opened without blocking (a FIFO swapped in is an
	// error, not a copy that never ends).
	in, _, err := safefile.OpenPath(from, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func copyTree(from, to string) error { return copyTreeContext(context.Background(), from, to) }

// stageTree copies the regular files under root/dir to stage/dir on a
// pool of GOMAXPROCS workers, stopping at the first error (or ctx's).
// A file for which transform (given its slash-separated path relative
// to root and its content) returns true is written as transform returned
// it instead of copied; transform reads whole files, the others are
// streamed. An entry that is neither a directory nor a regular file (a
// symbolic link, FIFO, socket or device) is not staged (notStaged names
// them).
func stageTree(ctx context.Context, root, stage, dir string, transform func(rel string, b []byte) ([]byte, bool)) error {
	files, err := regularFiles(filepath.Join(root, dir))
	if err != nil {
		return err
	}
	one := func(p string) error {
		rel, _ := filepath.Rel(root, p)
		dst := filepath.Join(stage, rel)
		if strings.HasSuffix(rel, ".md") {
			b, err := safefile.ReadPath(p, safefile.TextMaxSize)
			if err != nil {
				return err
			}
			if out, ok := transform(filepath.ToSlash(rel), b); ok {
				return writeFile(dst, out)
			}
			return writeFile(dst, b)
		}
		return copyFile(p, dst)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			defer crash.Guard()
			if err := gctx.Err(); err != nil {
				return err
			}
			return one(p)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// notStaged describes each entry under root/dir that stageTree does not
// copy (a symbolic link, with its target, a FIFO, socket or device), by
// its slash path relative to root, in path order, and what leaving it out
// means: Hugo builds without it, so a template calling a linked partial
// fails with only "partial not found".
func notStaged(root, dir string) []string {
	var out []string
	_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out = append(out, fmt.Sprintf("%s is a symbolic link (to %s); %s", rel, target, notStagedNote))
			return nil
		}
		if fi, err := d.Info(); err == nil {
			out = append(out, fmt.Sprintf("%s is not a regular file (%s); %s", rel, fi.Mode().Type(), notStagedNote))
		}
		return nil
	})
	return out
}

const notStagedNote = "not staged, so Hugo builds without it (a template that calls it fails with \"partial not found\", a page or file that links to it is missing); expected a regular file inside the project: copy it in"

// regularFiles returns the paths of the regular files under dir, sorted;
// none when dir does not exist.
func regularFiles(dir string) ([]string, error) {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// copyTreeContext copies the regular files under from to to, file by
// file; it stops with ctx's error when ctx is done.
func copyTreeContext(ctx context.Context, from, to string) error {
	files, err := regularFiles(from)
	if err != nil {
		return err
	}
	for _, p := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if err := copyFile(p, filepath.Join(to, rel)); err != nil {
			return err
		}
	}
	return nil
}

// moduleCompat matches Hugo's notice that a theme's declared Hugo range
// ([module.hugoVersion] min, max, extended) does not hold the running
// Hugo: Blowfish declares a max older than the Hugo evdoc pins, which
// builds it.
var moduleCompat = regexp.MustCompile(`^Module "[^"]*" is not compatible with this Hugo version`)

// hugoWarnings returns the warnings in Hugo's log out (written at
// --logLevel warn: one "WARN  message" line each), and apart from them
// Hugo's notices about a theme: its own deprecation notices
// ("deprecated: X was deprecated in Hugo v0.x …") and a theme's declared
// Hugo range that the running Hugo is outside of; a template's warnf
// saying "deprecated" is a warning.
func hugoWarnings(out []byte) (warns, deprecated []string) {
	for line := range strings.SplitSeq(string(out), "\n") {
		msg, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "WARN")
		if !ok || msg != "" && msg[0] != ' ' {
			continue
		}
		msg = strings.TrimSpace(msg)
		if strings.HasPrefix(msg, "deprecated: ") && strings.Contains(msg, " was deprecated in Hugo") || moduleCompat.MatchString(msg) {
			deprecated = append(deprecated, msg)
			continue
		}
		warns = append(warns, msg)
	}
	return warns, deprecated
}
