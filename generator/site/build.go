package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/hugorun"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/slots"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/generator/verify"
	"github.com/evdoc-lab/evdoc/generator/verify/outscan"
	"github.com/evdoc-lab/evdoc/internal/atomicdir"
	"github.com/evdoc-lab/evdoc/internal/cputime"
	"github.com/evdoc-lab/evdoc/internal/gctune"
	"github.com/evdoc-lab/evdoc/internal/interrupt"
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
	// unverified skips verify.VerifyOutput: tests whose fake Hugo writes a
	// one-file site set it.
	unverified bool
	// noSlots stages every claim without slot (as evdoc serve does):
	// tests compare the two builds' output.
	noSlots bool
}

// useSlots reports whether Build stages claims with slots
// (staging.StageOptions.Slots): not on a site Hugo minifies (the
// configuration's minify.minifyOutput, a --minify in the Hugo command,
// a HUGO_MINIFY… environment variable), where the claims' markup would
// have to be minified as Hugo minifies each page around it; not where
// Hugo rewrites the URLs of the HTML it writes (canonifyURLs,
// relativeURLs) or each language has its own baseURL
// (multihost), where the claims' markup would need each page's rewrite;
// not where evdoc cannot tell the files of the rss output format, whose
// URLs Hugo always rewrites (hugoconf.PublishURLs.RSSUnsure).
func useSlots(s *project.Site, opt BuildOptions) bool {
	if opt.noSlots || s.Config.Minify {
		return false
	}
	if pu := s.Config.PublishURLs; pu.Rewrite || pu.Multihost || pu.RSSUnsure {
		return false
	}
	for _, a := range opt.Hugo[1:] {
		if a == "--minify" || strings.HasPrefix(a, "--minify=") {
			return false
		}
	}
	for _, e := range os.Environ() {
		if strings.HasPrefix(strings.ToUpper(e), "HUGO_MINIFY") {
			return false
		}
	}
	return true
}

// feedBaseURL returns the baseURL Hugo runs with: a --baseURL (-b) in
// the Hugo command, else the configuration's (a HUGO_BASEURL of evdoc's
// environment does not reach Hugo, hugoconf.HugoEnviron).
func feedBaseURL(s *project.Site, opt BuildOptions) string {
	base := s.Config.BaseURL
	args := opt.Hugo[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return base
		case a == "--baseURL" || a == "-b":
			if i+1 < len(args) {
				base = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--baseURL="):
			base = strings.TrimPrefix(a, "--baseURL=")
		case strings.HasPrefix(a, "-b") && !strings.HasPrefix(a, "--"):
			base = strings.TrimPrefix(strings.TrimPrefix(a, "-b"), "=")
		}
	}
	return base
}

// Build checks the site, renders figures, stages the Hugo project with the
// generated pages (translation fallbacks, raw evidence pages) and data, and
// runs Hugo on it. The output replaces Out in one atomic step only when
// Hugo succeeded and the output holds every claim and evidence page as
// evdoc's theme component renders them (verify.VerifyOutput), so a failed, interrupted or killed build never leaves a
// partial site: Out holds the old site or the new one. A site with error
// findings is not built: Build returns them as a diag.List.
//
// The caller holds the project lock (LockProject): Build removes what
// earlier, killed runs left (stage directories, half-written output,
// their Hugo processes) and restores an old site a killed swap left aside.
// The stage and the new output directory are unique to the run and
// removed when Build returns. When ctx is done Hugo's process group is
// stopped and Build returns ctx's error; Out is left as it was.
func Build(ctx context.Context, s *project.Site, opt BuildOptions) error {
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
	final, err := outputDir(s, out)
	if err != nil {
		return err
	}
	ops := atomicdir.OS()
	if opt.replace != nil {
		ops = *opt.replace
	}
	work := filepath.Join(s.Root, hugoconf.WorkDirName)
	if err := hugorun.EnsureRealDir(work); err != nil {
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
	// Checking and staging run with the collector paced for a heap
	// that may grow to checkStageHeap (internal/gctune): the stage data
	// the check keeps is most of the live heap (180 MB at 2,000 pages),
	// which Go's default pace would mark once every time the heap
	// doubled. Hugo runs at Go's default pace again.
	stopPace := sync.OnceFunc(gctune.Start(checkStageHeap, 400))
	defer stopPace()
	// Checking only reads: on SIGINT/SIGTERM it is abandoned at once.
	fmt.Fprintf(progress, "evdoc: project loaded (%.2f s CPU since evdoc started)\n", cputime.Self().Seconds())
	start := startStep()
	// Of the claims' verdicts only what staging needs is kept
	// (StageData), page by page as they are judged.
	type verdicts struct {
		data   *stagedata.StageData
		claims int
		ds     diag.List
	}
	chk, err := interrupt.Wait(ctx, func() verdicts {
		c := checker.NewCheckerWith(s, checker.CheckerOptions{Check: opt.Check, CountsOnly: true, Stage: true})
		_, total := c.Counts()
		return verdicts{c.StageData(), total, c.Diagnostics()}
	})
	if err != nil {
		return err
	}
	data, ds := chk.data, chk.ds
	checked := start.String()
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
	fmt.Fprintf(progress, "evdoc: %d claims checked, %d pages, %d evidence sets (check %s)\n", chk.claims, len(s.Pages), len(s.Store.Sets), checked)
	start = startStep()
	staged, err := staging.StageWith(ctx, s, stage, data, progress, staging.StageOptions{Slots: useSlots(s, opt)})
	if staged != nil {
		for _, n := range staged.NotStaged {
			fmt.Fprintf(logw, "evdoc: warning: %s\n", n)
		}
	}
	for _, n := range s.MainSectionTies(time.Now()) {
		fmt.Fprintln(logw, n)
	}
	if err != nil {
		return err
	}
	if staged.Slots != nil {
		// the claims filled into feeds get the URL rewrite Hugo gives
		// the rss output format's files
		feed, err := slots.NewFeed(s.Config.PublishURLs.RSSFile, feedBaseURL(s, opt))
		if err != nil {
			return err
		}
		staged.Slots.SetFeed(feed)
		fmt.Fprintf(progress, "evdoc: staged (%s; %d claims with slots, %d citation tables with slots)\n", start, staged.Slots.Len(), staged.Slots.CitesLen())
	} else {
		fmt.Fprintf(progress, "evdoc: staged (%s)\n", start)
	}
	stopPace()
	hugoEnv, v := staged.Env, staged.Viewer
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	tmpOut, err := atomicdir.NewTemp(final)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpOut) // gone after a successful swap
	cmd := hugorun.DirectTool(ctx, opt.Hugo)
	absStage, _ := filepath.Abs(stage)
	args := append(append([]string{}, cmd[1:]...), "--source", absStage, "--destination", tmpOut, "--logLevel", "warn")
	fmt.Fprintf(progress, "evdoc: running %s\n", strings.Join(append([]string{cmd[0]}, args...), " "))
	c := exec.Command(cmd[0], args...)
	var hugoOut bytes.Buffer
	// One writer for both streams: os/exec then copies them in a single
	// goroutine, so logw and hugoOut are never written concurrently.
	hugoLog := progress
	if !opt.Verbose {
		hugoLog = &hugorun.Problems{W: logw, Stage: absStage}
	}
	hugoW := io.MultiWriter(hugoLog, &hugoOut)
	c.Stdout = hugoW
	c.Stderr = hugoW
	c.Env = hugoconf.HugoEnviron(os.Environ(), append(append([]string{}, hugoEnv...), "HUGO_CACHEDIR="+filepath.Join(absStage, "..", "hugo-cache")))
	groupFile := filepath.Join(work, hugorun.HugoGroupFile)
	// The output check reads the files Hugo has written while it runs
	// (Hugo leaves part of the machine idle), and again those that
	// changed after (outscan.Early).
	var early *outscan.Early
	if !opt.unverified {
		// Files with claim placeholders are filled in as soon as Hugo
		// has written the claims' formats.
		var fillDir string
		var from func([]string) outscan.Filler
		if staged.Slots != nil {
			if d, err := os.MkdirTemp(work, "stage-fill-"); err == nil {
				fillDir = d
				defer os.RemoveAll(d)
				from = func(files []string) outscan.Filler {
					if f, ok := staged.Slots.Early(tmpOut, files); ok {
						return f
					}
					return nil
				}
			}
		}
		early = outscan.StartEarlyFill(ctx, tmpOut, fillDir, slots.FormatsFile, from)
		defer early.Stop()
	}
	start = startStep()
	err = procgroup.Run(ctx, c, procgroup.Options{Timeout: opt.HugoTimeout, Started: func(leader procgroup.Ident) {
		_ = hugorun.WriteGroupRecord(groupFile, leader, absStage)
	}})
	_ = os.Remove(groupFile)
	fmt.Fprintf(progress, "evdoc: hugo ran (%s)\n", start.withChild(c.ProcessState))
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("interrupted while Hugo ran (%w); %s left as it was", ctx.Err(), out)
		case errors.Is(err, procgroup.ErrTimeout):
			return fmt.Errorf("hugo %v (see --hugo-timeout); %s left as it was", err, out)
		case opt.Log != nil && opt.Verbose:
			return fmt.Errorf("hugo failed: %v (its output is above)", err)
		}
		if a := hugorun.ExtendedAdvice(hugoOut.Bytes(), cmd[0]); a != "" {
			return fmt.Errorf("hugo failed: %v\n%s%s", err, hugorun.Unstage(hugoOut.Bytes(), absStage), a)
		}
		return fmt.Errorf("hugo failed: %v\n%s", err, hugorun.Unstage(hugoOut.Bytes(), absStage))
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted (%w); %s left as it was", err, out)
	}
	for _, home := range verify.HomeFiles(s) {
		if _, err := os.Stat(filepath.Join(tmpOut, filepath.FromSlash(home))); err != nil {
			return fmt.Errorf("hugo succeeded but wrote no %s; %s left as it was", home, out)
		}
	}
	if opt.Strict {
		// Not Hugo's --panicOnWarning, which also fails on the
		// deprecation notices a theme's templates cause (and ends in a
		// Go stack trace): the build fails on Hugo's other warnings.
		warns, deprecated := hugorun.Warnings(hugorun.Unstage(hugoOut.Bytes(), absStage))
		if len(deprecated) > 0 {
			fmt.Fprintf(logw, "evdoc: Hugo reported %d deprecation or theme compatibility notice(s), which --strict does not fail on (update the theme or the template that uses it):\n  %s\n", len(deprecated), strings.Join(deprecated, "\n  "))
		}
		if len(warns) > 0 {
			return fmt.Errorf("--strict: Hugo warned %d time(s):\n  %s\n%s left as it was", len(warns), strings.Join(warns, "\n  "), out)
		}
	}
	for _, f := range v.Order {
		// A sparse file's viewer pages link to its published copy.
		if vf := v.Files[f]; vf.Sparse {
			if _, err := os.Stat(filepath.Join(tmpOut, filepath.FromSlash(vf.File))); err != nil {
				return fmt.Errorf("hugo did not publish %s from the staged static/ (is staticDir set in %s?); its viewer pages would link to a missing file; %s left as it was", vf.File, hugoconf.ConfigFile, out)
			}
		}
	}
	// The claims' placeholders are filled in (staged.Slots) as the
	// output check reads each file, or on their own without it.
	var fill outscan.Filler
	if staged.Slots != nil {
		start = startStep()
		f, err := staged.Slots.Load(tmpOut)
		if err != nil {
			return fmt.Errorf("filling in the claims: %v; %s left as it was", err, out)
		}
		fmt.Fprintf(progress, "evdoc: claims' formats read (%s)\n", start)
		fill = &timedFill{Filler: f}
		// what was filled in while Hugo ran is taken only when filled
		// from the same formats
		if ef, ok := early.Filler().(*slots.Filler); ok && !ef.Agrees(f) {
			early.DropFilled()
		}
		if opt.unverified {
			start = startStep()
			if err := f.FillDir(tmpOut); err != nil {
				return fmt.Errorf("filling in the claims: %v; %s left as it was", err, out)
			}
			fmt.Fprintf(progress, "evdoc: claims filled in (%s)\n", start)
		}
	}
	if !opt.unverified {
		start = startStep()
		err := verify.VerifyOutputFill(ctx, s, tmpOut, out, staged, data, opt.Log, opt.Strict, early, fill)
		reused, read := early.Reused()
		filled := ""
		if tf, ok := fill.(*timedFill); ok {
			filled = fmt.Sprintf(", claims filled in: %.2f s in the workers", time.Duration(tf.ns.Load()).Seconds())
		}
		fmt.Fprintf(progress, "evdoc: output checked (%s%s; %d files read while Hugo ran, %d of them unchanged after)\n", start, filled, read, reused)
		if err != nil {
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
	fmt.Fprintf(progress, "evdoc: evdoc used %.2f s CPU in all\n", cputime.Self().Seconds())
	return nil
}

// checkStageHeap is the heap goal the collector is paced for while
// Build checks and stages (gctune.Start): up to four times the live heap
// while that stays under it.
const checkStageHeap = 1 << 30

// timedFill is a fill (slots.Filler) that adds up the time its Fill
// calls take, for the verbose log.
type timedFill struct {
	*slots.Filler
	ns atomic.Int64
}

func (t *timedFill) Fill(rel string, b []byte) ([]byte, bool, error) {
	start := time.Now()
	defer func() { t.ns.Add(int64(time.Since(start))) }()
	return t.Filler.Fill(rel, b)
}

// step is the start of one step of a build, for the verbose log's
// timings: its wall clock and the CPU time evdoc had used.
type step struct {
	wall time.Time
	cpu  time.Duration
}

func startStep() step { return step{time.Now(), cputime.Self()} }

// String gives the step's wall time and the CPU time (user and system,
// on every core) evdoc used since it started.
func (s step) String() string {
	return fmt.Sprintf("%.2f s wall, %.2f s CPU", time.Since(s.wall).Seconds(), (cputime.Self() - s.cpu).Seconds())
}

// withChild is String with the CPU time of the child process that ran
// the step (Hugo; nil when it did not start) beside evdoc's own.
func (s step) withChild(ps *os.ProcessState) string {
	var child time.Duration
	if ps != nil {
		child = ps.UserTime() + ps.SystemTime()
	}
	return fmt.Sprintf("%s; Hugo %.2f s CPU", s, child.Seconds())
}

// cleanLeftovers removes what runs killed before they could clean up left
// behind: a Hugo process group still running, stage directories, new-site
// directories next to final, and an old site moved aside (restored when
// final is missing). The caller holds the project lock.
func cleanLeftovers(work, final string, ops atomicdir.Ops, logw io.Writer) error {
	if n := hugorun.ReapGroupRecord(work, func(stage string) bool {
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
var sourceDirs = []string{"content", project.EvidenceDir, project.FiguresDir, "layouts", "static", "i18n", "themes", "assets", "config", "data", "tools", "cmd", "generator", ".git", hugoconf.WorkDirName}

// outputDir resolves out (relative to Root, or absolute; symbolic links
// resolved) and refuses destinations that would replace sources: the
// root itself or an ancestor, a source directory or anything inside one
// (also when reached through a link), an existing file, or a non-empty
// directory that is not a previous site (no index.html). It returns the
// resolved path, which is what Build writes and replaces.
func outputDir(s *project.Site, out string) (string, error) {
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
	for _, d := range append(append([]string{}, sourceDirs...), staging.StagedDirs(s)...) {
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
