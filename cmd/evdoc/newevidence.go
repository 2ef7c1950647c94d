package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/atomicdir"
	"github.com/evdoc-lab/evdoc/internal/interrupt"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/spf13/cobra"
)

var setNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// newEvidenceOptions are the flags of `evdoc new evidence`.
type newEvidenceOptions struct {
	from                                                 []string
	as, origin, source, title, date, environment, report string
}

// newEvidenceSet creates evidence/NAME/ holding a copy of each raw file
// of o.from and an evidence.toml reading each with one [[read]] entry
// (named NAME for one file, after the file for several; values get short
// names by select, see manifest.ShortNames), then
// loads the set and returns its values. The manifest lists each value's
// reference, number, unit and raw position as comments. Nothing is left
// behind when the file cannot be read.
//
// The manifest stays under the manifest limit (safefile.SpecMaxSize) that
// check applies: when listing every value as a comment would pass it, the
// listing is left out (evdoc values NAME lists them), and when the
// [read.select] names alone would, the values keep their keys as names.
// A manifest that would still be too large is refused (exit 2) before
// anything is written.
//
// It stops when ctx is done (SIGINT, SIGTERM): reading and loading are
// abandoned at once, and the set is either absent or whole. The temporary
// directories of a killed run (evidence/.NAME-new-*) are removed by the
// next one, which holds the project lock.
func newEvidenceSet(ctx context.Context, root, name string, o newEvidenceOptions, opts *globalOptions) ([]*evidence.Value, diag.List, error) {
	if !setNameRe.MatchString(name) {
		return nil, nil, fmt.Errorf("evidence set name %q: expected lower-case letters, digits and hyphens (e.g. fortio-cb-off)", name)
	}
	switch o.origin {
	case "raw":
	case "transcribed":
		if strings.TrimSpace(o.source) == "" {
			return nil, nil, fmt.Errorf("--origin=transcribed: expected --source naming the document and section it was re-typed from")
		}
	default:
		return nil, nil, fmt.Errorf("--origin=%q: expected raw (the lab's own output, unchanged) or transcribed (with --source)", o.origin)
	}
	if o.date != "" && o.date != "unknown" && !dateArgRe.MatchString(o.date) {
		return nil, nil, fmt.Errorf("--date=%q: expected the run's date as YYYY-MM-DD (or \"unknown\")", o.date)
	}
	if strings.TrimSpace(o.environment) == "" {
		return nil, nil, fmt.Errorf("--environment: expected where the data was measured (versions, cluster, load), e.g. \"Istio 1.30; kind; fortio 1.60\"")
	}
	if len(o.from) == 0 {
		return nil, nil, fmt.Errorf("--from: expected the raw file(s) to read")
	}
	// As every command: a configuration naming paths outside the
	// project stops it before it writes.
	if err := hugoconf.ConfineConfig(root); err != nil {
		return nil, nil, err
	}
	removeStaleNewSets(filepath.Join(root, project.EvidenceDir))
	// Regular files under the size limit, opened without blocking: a
	// FIFO or a device is an error at once, not a read that never ends.
	max := opts.load().Evidence.MaxFileSize
	if max == 0 {
		max = safefile.DefaultMaxSize
	}
	rel := filepath.ToSlash(filepath.Join(project.EvidenceDir, name))
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if err := safefile.CheckWrite(root, filepath.Join(dir, manifest.FileName)); err != nil {
		return nil, nil, err
	}
	if fi, err := os.Lstat(dir); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			// A link, dangling or not, is never replaced: name it and
			// where it points, rather than the rename's "not a directory".
			target, _ := os.Readlink(dir)
			return nil, nil, fmt.Errorf("%s is a symbolic link (to %s); expected a new evidence set name (remove the link or choose another name)", rel, target)
		}
		return nil, nil, fmt.Errorf("%s exists; expected a new evidence set name", rel)
	}
	setRead := strings.ReplaceAll(name, "-", "_")
	if setRead[0] >= '0' && setRead[0] <= '9' {
		setRead = "v" + setRead
	}
	// Read each file as `evdoc values` does, to pick its format and name
	// its values.
	type rawFile struct {
		src          []byte
		file, format string
		readName     string
		short        map[string]string // native key -> short local name; nil: the keys slugged
	}
	var files []rawFile
	usedFile, usedRead := map[string]bool{}, map[string]bool{}
	for _, from := range o.from {
		src, err := safefile.ReadPath(from, max)
		if err != nil {
			return nil, nil, fmt.Errorf("--from %v", err)
		}
		var recs []report.Value
		ds, err := interrupt.Wait(ctx, func() diag.List {
			return valuesOf(filepath.Dir(from), filepath.Base(from), o.as, opts.load().Evidence, func(r report.Value) { recs = append(recs, r) }, nil, io.Discard)
		})
		if err != nil {
			return nil, nil, err
		}
		if ds.HasErrors() || len(recs) == 0 {
			var b strings.Builder
			printDiags(&b, ds)
			return nil, nil, fmt.Errorf("%s: no value to name (see `evdoc values %s`)\n%s", from, from, b.String())
		}
		file := filepath.Base(from)
		if usedFile[file] {
			return nil, nil, fmt.Errorf("%s: two files named %s; expected distinct file names (they are copied side by side)", from, file)
		}
		usedFile[file] = true
		readName := setRead
		if len(o.from) > 1 {
			readName = fileReadName(file, usedRead)
		}
		usedRead[readName] = true
		keys := make([]string, len(recs))
		for i, r := range recs {
			keys[i] = r.Key
		}
		files = append(files, rawFile{src: src, file: file, format: recs[0].Format, readName: readName, short: manifest.ShortNames(keys)})
	}
	if o.title == "" {
		o.title = name
	}
	dateNote := ""
	if o.date == "" {
		o.date = "unknown"
		dateNote = "   # the run's date was not given (--date YYYY-MM-DD): set it"
	}
	if o.report == "" {
		o.report = rel + "/" + files[0].file
	}
	q := strconv.Quote
	var names []string
	for _, f := range files {
		names = append(names, f.file)
	}
	manifestText := func(shortNames bool) *strings.Builder {
		var m strings.Builder
		fmt.Fprintf(&m, "# Written by `evdoc new evidence %s --from %s`.\n", name, strings.Join(names, " --from "))
		fmt.Fprintf(&m, "id          = %s\ntitle       = %s\ndate        = %s%s\nenvironment = %s\nreport      = %s\norigin      = %s\n",
			q(name), q(o.title), q(o.date), dateNote, q(o.environment), q(o.report), q(o.origin))
		if o.origin == "transcribed" {
			fmt.Fprintf(&m, "source      = %s\n", q(o.source))
		}
		for _, f := range files {
			fmt.Fprintf(&m, "\n[[read]]\nfile   = %s\nformat = %s\nname   = %s\n", q(f.file), q(f.format), q(f.readName))
			if f.short == nil {
				continue
			}
			if !shortNames {
				fmt.Fprintf(&m, "# %d values keep their keys as names: a [read.select] naming each would pass the %s manifest limit\n", len(f.short), safefile.Size(safefile.SpecMaxSize))
				continue
			}
			keys := make([]string, 0, len(f.short))
			for k := range f.short {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			m.WriteString("[read.select]   # the file's keys, each with a short name\n")
			for _, k := range keys {
				fmt.Fprintf(&m, "%s = %s\n", tomlKey(k), q(f.short[k]))
			}
		}
		return &m
	}
	m := manifestText(true)
	if int64(m.Len()) > safefile.SpecMaxSize {
		m = manifestText(false)
	}
	if int64(m.Len()) > safefile.SpecMaxSize {
		return nil, nil, fmt.Errorf("the manifest of %s would be %s, over the %s limit of a manifest; expected fewer files (split them over several sets)", rel, safefile.Size(int64(m.Len())), safefile.Size(safefile.SpecMaxSize))
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	tmp, err := atomicdir.MkdirTemp(filepath.Join(root, project.EvidenceDir), "."+name+"-new-", "")
	if err != nil {
		if err := os.MkdirAll(filepath.Join(root, project.EvidenceDir), 0o755); err != nil {
			return nil, nil, err
		}
		if tmp, err = atomicdir.MkdirTemp(filepath.Join(root, project.EvidenceDir), "."+name+"-new-", ""); err != nil {
			return nil, nil, err
		}
	}
	defer os.RemoveAll(tmp)
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.file), f.src, 0o644); err != nil {
			return nil, nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, manifest.FileName), []byte(m.String()), 0o644); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	// Load it under its final name to learn the references, then list them.
	if err := os.Rename(tmp, dir); err != nil {
		return nil, nil, err
	}
	type loaded struct {
		set  *evidence.Set
		errs diag.List
	}
	l, err := interrupt.Wait(ctx, func() loaded {
		set, errs := evidence.LoadSetWith(root, rel, opts.load().Evidence)
		return loaded{set, errs}
	})
	if err != nil {
		// Stopped while the set was loading: no set rather than one
		// that was never listed.
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	set, errs := l.set, l.errs
	if set == nil || errs.HasErrors() {
		_ = os.RemoveAll(dir)
		var b strings.Builder
		printDiags(&b, errs)
		return nil, nil, fmt.Errorf("the new manifest does not load:\n%s", b.String())
	}
	vals := set.Sorted()
	var list strings.Builder
	list.WriteString("\n# Values (claim link: [number](ev:REF)); units come from the format:\n")
	for _, v := range vals {
		unit := v.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(&list, "#   %s = %s %s  (%s:%d:%d)\n", v.Ref, v.Value.String(), unit, path.Base(v.Pos.File), v.Pos.Line, v.Pos.Column)
	}
	if int64(m.Len()+list.Len()) <= safefile.SpecMaxSize {
		m.WriteString(list.String())
	} else {
		fmt.Fprintf(m, "\n# %d values, not listed here: the list would pass the %s manifest limit; `evdoc values %s` lists them.\n", len(vals), safefile.Size(safefile.SpecMaxSize), name)
	}
	mf := filepath.Join(dir, manifest.FileName)
	if err := os.WriteFile(mf+".tmp", []byte(m.String()), 0o644); err != nil {
		return nil, nil, err
	}
	if err := os.Rename(mf+".tmp", mf); err != nil {
		return nil, nil, err
	}
	return vals, errs, nil
}

// fileReadName names the [[read]] entry of one of several files by the
// file's name without its extension ("stats-prometheus.txt" is
// stats_prometheus), numbered when two would share a name.
func fileReadName(file string, used map[string]bool) string {
	stem := strings.TrimSuffix(file, filepath.Ext(file))
	var b strings.Builder
	for _, r := range strings.ToLower(stem) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := strings.Trim(b.String(), "_")
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "f" + n
	}
	for i, base := 2, n; used[n]; i++ {
		n = fmt.Sprintf("%s_%d", base, i)
	}
	return n
}

// tomlKey writes k as a TOML key: a literal string when it holds no
// single quote, else a basic string.
func tomlKey(k string) string {
	if !strings.ContainsAny(k, "'\n") {
		return "'" + k + "'"
	}
	return strconv.Quote(k)
}

// dateArgRe is the form of --date: the manifest's date (YYYY-MM-DD).
var dateArgRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func newNewCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "new",
		Short:   "Create project files (evdoc new evidence NAME --from FILE)",
		Example: "  evdoc new evidence cb-off --from ~/runs/cb-off.json --origin raw --date 2026-07-09 --environment \"Istio 1.30; kind; fortio 1.60\"",
	}
	var o newEvidenceOptions
	var lf lockFlags
	ev := &cobra.Command{
		Use:   "evidence NAME --from FILE... --origin raw|transcribed --environment TEXT",
		Short: "Create evidence/NAME/ from raw files: a copy of each and an evidence.toml naming their values",
		Long: "new evidence copies each FILE into evidence/NAME/ and writes an evidence.toml with one [[read]] entry\n" +
			"per file in the format `evdoc values` guesses (or --as), named after the file when there are several,\n" +
			"with short, readable names (select: label values for label sets, Kubernetes workloads for pod names),\n" +
			"then lists every value's reference and unit, in the manifest as comments and on standard output,\n" +
			"and on standard error each number of a file that no reading took (evidence-number), as evdoc check\n" +
			"reports it. The manifest stays under the 4 MiB limit check applies to manifests: when listing every\n" +
			"value would pass it, the listing is left out (evdoc values NAME lists them). It holds the project lock\n" +
			"(--lock-wait); SIGINT or SIGTERM stops it with no set written. --origin is required: raw when FILE is the\n" +
			"lab's own output, transcribed (with --source) when it was re-typed from a document.",
		Example: "  evdoc new evidence cb-off --from ~/runs/cb-off.json --origin raw --environment \"Istio 1.30; kind; fortio 1.60\"\n" +
			"  evdoc new evidence blog-table --from table.md --origin transcribed --source \"team blog, 2026-07-09, table 2\" --environment \"Istio 1.29 lab\"",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := o
			o.from = append(append([]string(nil), o.from...), args[1:]...) // --from a.txt b.txt
			ctx := cmd.Context()
			l, err := lockProject(ctx, *root, "new evidence", lf, stderr)
			if err != nil {
				return err
			}
			defer l.Unlock()
			vals, warns, err := newEvidenceSet(ctx, *root, args[0], o, opts)
			if err != nil {
				if ctx.Err() != nil {
					return err // the signal's status (run)
				}
				return &exitError{2, err}
			}
			if len(warns) > 0 {
				// numeric tokens no reading took (evidence-number): the
				// same findings evdoc check reports for the set
				printDiags(stderr, warns)
			}
			fmt.Fprintf(stdout, "wrote %s/%s/%s with %d values:\n", project.EvidenceDir, args[0], manifest.FileName, len(vals))
			if o.date == "" {
				fmt.Fprintf(stderr, "evdoc: warning: no --date: %s/%s/%s says date = \"unknown\", and the evidence pages show the run's date as unknown; set it there (YYYY-MM-DD)\n", project.EvidenceDir, args[0], manifest.FileName)
			}
			for _, v := range vals {
				fmt.Fprintf(stdout, "  %s = %s %s\n", v.Ref, v.Value.String(), v.Unit)
			}
			return nil
		},
	}
	ev.Flags().StringArrayVar(&o.from, "from", nil, "the raw `FILE` to read (copied into the set); repeat it, or list more files after it, for a run that left several")
	ev.Flags().StringVar(&o.as, "as", "", "raw file `FORMAT` (default: guessed, as evdoc values guesses it)")
	ev.Flags().StringVar(&o.origin, "origin", "", "the file's `ORIGIN`: raw (the lab's own output) or transcribed (re-typed from a document); required")
	ev.Flags().StringVar(&o.source, "source", "", "for a transcribed file, `TEXT` naming the document and section")
	ev.Flags().StringVar(&o.title, "title", "", "the set's title `TEXT` (default NAME)")
	ev.Flags().StringVar(&o.date, "date", "", "the run's `DATE`, YYYY-MM-DD (default \"unknown\", with a warning)")
	ev.Flags().StringVar(&o.environment, "environment", "", "`TEXT` saying where it was measured (required)")
	ev.Flags().StringVar(&o.report, "report", "", "the report (`PATH` or name) it belongs to (default the file's path in the set)")
	opts.addLoadFlags(ev, root)
	lf.register(ev)
	_ = ev.MarkFlagRequired("from")
	cmd.AddCommand(ev)
	return cmd
}

// removeStaleNewSets removes the temporary directories (.NAME-new-*) a
// killed new evidence left in dir. The caller holds the project lock, so
// no other new evidence is writing one; only real directories of that
// name are removed (a link is left alone).
func removeStaleNewSets(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || e.Type()&os.ModeSymlink != 0 || !strings.HasPrefix(n, ".") || !strings.Contains(n, "-new-") {
			continue
		}
		if !setNameRe.MatchString(n[1:strings.LastIndex(n, "-new-")]) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(dir, n))
	}
}
